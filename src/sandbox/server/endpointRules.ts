import type { RequestContext } from './RequestContext.js';
import { resolveWindow, type TimeWindow, type WindowRules } from './resolveWindow.js';

/**
 * The request's time window under the endpoint table's span and horizon, with the error code
 * the exchange uses: 40705 for the 90-day spans, 00001 (naming the days) for the others.
 * `overrides` adds endpoint-specific rules (required times, E11's default window, tax spans).
 *
 * @example
 * const window = windowOf(ctx, { required: true, maxSpanDays: ctx.taxSpanDays });
 */
export function windowOf(ctx: RequestContext, overrides: WindowRules = {}): TimeWindow {
  const maxSpanDays = overrides.maxSpanDays ?? ctx.endpoint.maxSpanDays;
  const rules: WindowRules = { spanError: maxSpanDays === 90 ? '40705' : '00001', ...overrides };
  if (maxSpanDays !== undefined) rules.maxSpanDays = maxSpanDays;
  if (ctx.endpoint.horizonDays !== undefined) rules.horizonDays = ctx.endpoint.horizonDays;
  return resolveWindow(ctx.params, ctx.now, rules);
}

/** The page size under the endpoint table's default and maximum (over the maximum: 40017). */
export function pageLimit(ctx: RequestContext): number {
  return ctx.params.limit(ctx.endpoint.limit ?? { default: 100, max: 100 });
}
