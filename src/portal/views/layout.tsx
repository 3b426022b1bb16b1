/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { PortalUser } from '../portalUser.js';

/** What every signed-in page's frame needs. */
export interface FrameProps {
  title: string;
  user?: PortalUser;
  csrf?: string;
  active?: 'accounts' | 'reports' | 'charts' | 'sessions';
  children?: Child;
  scripts?: string[];
}

/**
 * The page frame: head (styles and scripts from /assets only: the CSP allows nothing inline),
 * the top bar with navigation and sign-out, and the content.
 *
 * @example
 * c.html(<Layout title="Accounts" user={user} csrf={csrf} active="accounts">...</Layout>)
 */
export function Layout(props: FrameProps) {
  const nav = [
    ['accounts', '/accounts', 'Accounts'],
    ['reports', '/reports', 'Reports'],
    ['charts', '/charts', 'Charts'],
    ['sessions', '/sessions', 'Sessions'],
  ] as const;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true}' />
        <title>{props.title} · tradeledger</title>
        <link rel="stylesheet" href="/assets/portal.css" />
        <script src="/assets/htmx.min.js" defer></script>
        {(props.scripts ?? []).map((s) => <script src={s} defer></script>)}
      </head>
      <body>
        <header class="topbar">
          <a class="brand" href="/accounts"><span class="brand-mark">TL</span> tradeledger</a>
          {props.user && (
            <nav>
              {nav.map(([key, href, label]) => <a href={href} class={props.active === key ? 'active' : ''}>{label}</a>)}
            </nav>
          )}
          {props.user && (
            <form class="whoami" method="post" action="/logout">
              <span>{props.user.username} <span class="role">{props.user.role}</span></span>
              <input type="hidden" name="_csrf" value={props.csrf ?? ''} />
              <button type="submit" class="link">Sign out</button>
            </form>
          )}
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/**
 * A plain error page (403, 404, 400) that says what to do.
 *
 * @example
 * c.html(<ErrorPage status={404} message="No such account." />, 404)
 */
export function ErrorPage(props: { status: number; message: string; hint?: string; user?: PortalUser; csrf?: string }) {
  return (
    <Layout title={`Error ${props.status}`} user={props.user} csrf={props.csrf}>
      <section class="card narrow">
        <h1>{props.status === 404 ? 'Not found' : props.status === 403 ? 'Not allowed' : 'Cannot do that'}</h1>
        <p>{props.message}</p>
        {props.hint && <p class="muted">{props.hint}</p>}
        <p><a href="/accounts">Back to your accounts</a></p>
      </section>
    </Layout>
  );
}
