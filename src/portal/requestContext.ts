import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The client's address: the socket's, or behind `trustProxy` reverse proxies the entry of
 * X-Forwarded-For that the outermost trusted proxy wrote. Each proxy appends the address it saw,
 * so the entries are read from the right: with one proxy the last entry, with two the one before
 * it. Entries further left were written by the client (or proxies we do not run) and are never
 * believed: reading the leftmost let any client pick its own address past the sign-in limits.
 *
 * @example
 * clientAddress(c, 1); // 'X-Forwarded-For: 6.6.6.6, 203.0.113.7' -> '203.0.113.7'
 */
export function clientAddress(c: Context, trustProxy: boolean | number): string {
  const hops = trustProxy === true ? 1 : Number(trustProxy) || 0;
  if (hops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
    const forwarded = entries[Math.max(0, entries.length - hops)];
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
export function publicOrigin(c: Context, trustProxy: boolean | number): { origin: string; secure: boolean } {
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
export function sameOrigin(c: Context, trustProxy: boolean | number): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin === publicOrigin(c, trustProxy).origin;
  const site = c.req.header('sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}
