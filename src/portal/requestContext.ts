import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The client's address: the socket's, or with `trustProxy` the first X-Forwarded-For entry
 * (only behind a reverse proxy that sets it; otherwise any client could pick its own).
 *
 * @example
 * clientAddress(c, false); // '127.0.0.1'
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 100);
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The origin the browser sees: scheme and host, with the proxy's X-Forwarded-Proto when trusted.
 *
 * @example
 * publicOrigin(c, true); // 'https://ledger.example.com'
 */
export function publicOrigin(c: Context, trustProxy: boolean): { origin: string; secure: boolean } {
  const url = new URL(c.req.url);
  const proto = (trustProxy ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() : undefined) ?? url.protocol.replace(':', '');
  const host = (trustProxy ? c.req.header('x-forwarded-host') : undefined) ?? c.req.header('host') ?? url.host;
  return { origin: `${proto}://${host}`, secure: proto === 'https' };
}

/**
 * Whether a state-changing request comes from the portal's own pages: the Origin header (sent by
 * every current browser on a POST) must be the portal's; without one, Sec-Fetch-Site must not
 * say cross-site. The CSRF token is checked as well, separately.
 *
 * @example
 * if (!sameOrigin(c, false)) return c.text('cross-site request refused', 403);
 */
export function sameOrigin(c: Context, trustProxy: boolean): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin === publicOrigin(c, trustProxy).origin;
  const site = c.req.header('sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}
