/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';

/**
 * The sign-in form. The CSRF value pairs with a short-lived cookie (double submit), so a
 * cross-site page cannot sign someone in as the attacker.
 *
 * @example
 * c.html(<LoginPage csrf={token} />)
 */
export function LoginPage(props: { csrf: string; error?: string; username?: string; notice?: string }) {
  return (
    <Layout title="Sign in">
      <section class="card login">
        <h1>Sign in</h1>
        <p class="muted">Reports and ledgers of the accounts you look after.</p>
        {props.notice && <p class="notice">{props.notice}</p>}
        {props.error && <p class="alert alert-error" role="alert">{props.error}</p>}
        <form method="post" action="/login">
          <input type="hidden" name="_csrf" value={props.csrf} />
          <label>User name<input name="username" autocomplete="username" required value={props.username ?? ''} autofocus /></label>
          <label>Password<input name="password" type="password" autocomplete="current-password" required /></label>
          <button type="submit" class="primary">Sign in</button>
        </form>
      </section>
    </Layout>
  );
}
