import { ApiFailure } from '../ApiFailure.js';
import type { RequestContext } from '../RequestContext.js';

/**
 * E1 and E15's optional requestTime/receiveWindow: the window may not exceed 60 s (40079), and
 * a request older than its window when it arrives is refused (40078). Without requestTime the
 * window counts from ACCESS-TIMESTAMP.
 *
 * @example
 * checkReceiveWindow(ctx);
 */
export function checkReceiveWindow(ctx: RequestContext): void {
  const window = ctx.params.time('receiveWindow');
  const requestTime = ctx.params.time('requestTime');
  if (window === undefined) return;
  if (window > 60_000) throw ApiFailure.of('40079');
  const sentAt = requestTime ?? ctx.signedAt;
  if (sentAt !== null && Math.abs(ctx.now - sentAt) > window) throw ApiFailure.of('40078');
}
