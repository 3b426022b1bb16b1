/** @jsxImportSource hono/jsx */
import { deleteCookie } from 'hono/cookie';
import { listSessions, revokeSession } from '../sessionStore.js';
import { SessionsPage } from '../views/sessionsPage.js';
import { errorPage, sessionCookie } from './shared.js';
import type { Guards, PortalDeps, PortalHono } from './shared.js';

/**
 * Signing out, and the user's own sessions: the list (where, when, which browser) and revoking one.
 *
 * @example
 * sessionRoutes(app, deps, guards(deps));
 */
export function sessionRoutes(app: PortalHono, { pool, now }: PortalDeps, { only }: Guards): void {
  app.post('/logout', only(['_csrf']), async (c) => {
    await revokeSession(pool, c.get('session').id, c.get('session').user.id, now());
    deleteCookie(c, sessionCookie, { path: '/' });
    return c.redirect('/login?out', 303);
  });

  app.get('/sessions', only([]), async (c) => {
    const session = c.get('session');
    const sessions = await listSessions(pool, session.user.id, now());
    return c.html(<SessionsPage user={session.user} csrf={c.get('csrf')} sessions={sessions} currentId={session.id} />);
  });

  app.post('/sessions/:id/revoke', only(['_csrf']), async (c) => {
    const session = c.get('session');
    const done = await revokeSession(pool, c.req.param('id'), session.user.id, now());
    if (!done) return errorPage(c, 404, 'No such session of yours.');
    return c.redirect('/sessions', 303);
  });
}
