/** @jsxImportSource hono/jsx */
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { claimLoginAttempt, loginSucceeded, pruneLoginFailures } from '../loginThrottle.js';
import { dummyPasswordHash, verifyPassword } from '../passwordHash.js';
import { findLoginUser } from '../portalUsers.js';
import { sameOrigin } from '../requestContext.js';
import { findSession, openSession } from '../sessionStore.js';
import { csrfToken } from '../sessionToken.js';
import { LoginPage } from '../views/loginPage.js';
import { cookieOptions, errorPage, loginCookie, sameText, sessionCookie } from './shared.js';
import type { Env, Guards, PortalDeps, PortalHono } from './shared.js';

/**
 * The sign-in form (GET /login) and signing in (POST /login): the form's own CSRF cookie, the
 * login throttle (loginThrottle.ts), the password check against a dummy hash for unknown users.
 *
 * @example
 * loginRoutes(app, deps, guards(deps));
 */
export function loginRoutes(app: PortalHono, deps: PortalDeps, { only }: Guards): void {
  const { pool, now, policy, trustProxy, log } = deps;

  app.get('/login', only(['ended', 'out']), async (c) => {
    if (await findSession(pool, getCookie(c, sessionCookie), now(), policy)) return c.redirect('/accounts', 303);
    // Reused while it lives: two tabs (or a stray request) must not invalidate each other's form.
    const existing = getCookie(c, loginCookie);
    const csrf = existing && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
    setCookie(c, loginCookie, csrf, { ...cookieOptions(c, trustProxy), maxAge: 3600 });
    const notice = c.req.query('ended') !== undefined ? 'Your session has ended. Please sign in again.'
      : c.req.query('out') !== undefined ? 'You have signed out.' : undefined;
    return c.html(<LoginPage csrf={csrf} notice={notice} />);
  });

  app.post('/login', only(['_csrf', 'username', 'password']), async (c) => {
    const address = c.get('address');
    const body = await c.req.parseBody();
    const username = String(body.username ?? '').trim().slice(0, 100);
    const password = String(body.password ?? '');
    const cookieCsrf = getCookie(c, loginCookie) ?? '';
    const again = (status: 401 | 403 | 429, error: string) => {
      const csrf = randomBytes(24).toString('base64url');
      setCookie(c, loginCookie, csrf, { ...cookieOptions(c, trustProxy), maxAge: 3600 });
      return c.html(<LoginPage csrf={csrf} error={error} username={username} />, status);
    };
    if (!sameOrigin(c, trustProxy) || cookieCsrf === '' || !sameText(String(body._csrf ?? ''), cookieCsrf)) {
      const reason = !sameOrigin(c, trustProxy) ? `origin ${c.req.header('origin') ?? '(none)'}` : cookieCsrf === '' ? 'no form cookie' : 'token mismatch';
      log('portal-csrf-refused', { path: '/login', address, reason });
      return again(403, 'The sign-in form had expired or came from another site. Please try again.');
    }
    const attempt = await claimLoginAttempt(pool, username, address, now(), policy);
    const block = attempt.blocked;
    if (block) {
      log('portal-login-locked', { by: block.by, user: username, address });
      const minutes = Math.ceil(block.retryAfterSeconds / 60);
      c.header('Retry-After', String(block.retryAfterSeconds));
      return again(429, `Too many failed sign-ins ${block.by === 'user' ? 'for this user' : 'from your address'}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    const user = await findLoginUser(pool, username);
    const ok = await verifyPassword(password, user?.passwordHash ?? await dummyPasswordHash);
    if (!user || !ok || attempt.blocked) {
      // The attempt was counted as a failure when it was claimed.
      await pruneLoginFailures(pool, now());
      log('portal-login-failed', { user: username, address });
      return again(401, 'Wrong user name or password.');
    }
    await loginSucceeded(pool, username, attempt.attemptId);
    const token = await openSession(pool, String(user.id), now(), policy, address, c.req.header('user-agent') ?? '');
    deleteCookie(c, loginCookie, { path: '/' });
    setCookie(c, sessionCookie, token, cookieOptions(c, trustProxy));
    return c.redirect('/accounts', 303);
  });
}

/**
 * Everything after it needs a live session: without one a page redirects to the sign-in form
 * (htmx: HX-Redirect), anything else is 401. A state-changing request also needs the session's
 * CSRF token, from the same origin.
 *
 * @example
 * app.use('*', sessionGate(deps));
 */
export function sessionGate(deps: PortalDeps): MiddlewareHandler<Env> {
  const { pool, now, policy, trustProxy, log } = deps;
  return async (c, next) => {
    const token = getCookie(c, sessionCookie);
    const session = await findSession(pool, token, now(), policy);
    if (!session || !token) {
      const target = token ? '/login?ended' : '/login';
      if (token) deleteCookie(c, sessionCookie, { path: '/' });
      if (c.req.header('hx-request')) { c.header('HX-Redirect', target); return c.body(null, 401); }
      if (c.req.method !== 'GET') return c.text('Sign in first.', 401);
      return c.redirect(target, 303);
    }
    c.set('session', session);
    c.set('token', token);
    c.set('csrf', csrfToken(token));
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const body = c.req.header('content-type')?.includes('form') ? await c.req.parseBody() : {};
      const sent = c.req.header('x-csrf-token') ?? String(body._csrf ?? '');
      if (!sameOrigin(c, trustProxy) || !sameText(sent, c.get('csrf'))) {
        log('portal-csrf-refused', { path: c.req.path, user: session.user.username, address: c.get('address') });
        return errorPage(c, 403, 'This request did not come from a portal page, so it was refused.', 'If you pressed a button in the portal, reload the page and try again.');
      }
    }
    await next();
  };
}
