/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { utcMinute } from './format.js';
import type { PortalUser } from '../portalUser.js';
import type { SessionListing } from '../sessionStore.js';

/**
 * The user's open sessions, each revocable (e.g. a browser left signed in elsewhere).
 *
 * @example
 * c.html(<SessionsPage user={user} csrf={csrf} sessions={list} currentId={session.id} />)
 */
export function SessionsPage(props: { user: PortalUser; csrf: string; sessions: SessionListing[]; currentId: string }) {
  return (
    <Layout title="Sessions" user={props.user} csrf={props.csrf} active="sessions">
      <div class="page-head">
        <h1>Your sessions</h1>
        <p class="muted">Every browser signed in as you. Sign out any you do not recognise, then ask for a new password.</p>
      </div>
      <section class="card">
        <div class="table-wrap">
        <table class="data">
          <thead><tr><th>Signed in</th><th>Last used</th><th>Expires</th><th>Address</th><th>Browser</th><th></th></tr></thead>
          <tbody>
            {props.sessions.map((s) => (
              <tr>
                <td>{utcMinute(s.createdAt.toISOString())}</td>
                <td>{utcMinute(s.lastSeenAt.toISOString())}</td>
                <td>{utcMinute(s.expiresAt.toISOString())}</td>
                <td class="mono">{s.address ?? ''}</td>
                <td class="ua">{(s.userAgent ?? '').slice(0, 80)}</td>
                <td>
                  {s.id === props.currentId ? <span class="badge badge-ok">This browser</span> : (
                    <form method="post" action={`/sessions/${s.id}/revoke`}>
                      <input type="hidden" name="_csrf" value={props.csrf} />
                      <button type="submit" class="button small">Sign out</button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      </section>
    </Layout>
  );
}
