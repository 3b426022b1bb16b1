import { userInfo } from 'node:os';
import { withParameters } from './urlParameters.js';

/**
 * Fills in the user of a PostgreSQL URL that names none, the way psql does: PGUSER, else the
 * operating-system user. pg alone falls back to $USER, which cron, CI and containers often leave
 * unset ("no PostgreSQL user name specified").
 *
 * @example
 * withDefaultUser('postgres://127.0.0.1:5432/test') // 'postgres://root@127.0.0.1:5432/test' as root
 */
export function withDefaultUser(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const parsed = new URL(url);
  // A `user` parameter names the user as well (pg and libpq read it; it wins over the name before @).
  if (parsed.username || parsed.searchParams.has('user')) return url;
  const user = env.PGUSER || env.USER || userInfo().username;
  // A URL with no host before the path (`postgres:///db?host=/var/run/postgresql`, a Unix socket)
  // can hold no user name there (the URL standard drops it), so the user goes in as a parameter.
  if (parsed.host === '') {
    return withParameters(url, { user: encodeURIComponent(user) });
  }
  parsed.username = encodeURIComponent(user);
  return parsed.toString();
}
