import type { MiddlewareHandler } from 'hono';

// No inline script or style anywhere: everything comes from /assets. Chart.js sizes its canvases
// through the CSSOM (element.style), which style-src does not govern.
const csp = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "font-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
].join('; ');

/**
 * Sets the Content-Security-Policy and the other protective headers on every response; pages and
 * data are never cached (they hold a client's finances).
 *
 * @example
 * app.use('*', securityHeaders());
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the portal's own
    // form posts, and the Origin check needs the real one. Other sites still get no referrer.
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    c.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (!c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-store');
  };
}
