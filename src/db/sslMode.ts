import { accessSync, constants } from 'node:fs';
import { TradeledgerError } from '../errors.js';
import { withParameters } from './urlParameters.js';

/**
 * DATABASE_URL's `sslmode` as libpq documents it, which is what a user copying a URL from psql or
 * from a hosted PostgreSQL's settings page means by it
 * (https://www.postgresql.org/docs/15/libpq-ssl.html, Table 34.1 "SSL Mode Descriptions"):
 *
 * - `disable`: "I don't care about security, and I don't want to pay the overhead of encryption."
 * - `allow`: "first try a non-SSL connection; if that fails, try an SSL connection".
 * - `prefer` (libpq's default): "first try an SSL connection; if that fails, try a non-SSL connection".
 * - `require`: "I want my data to be encrypted, and I accept the overhead. I trust that the network
 *   will make sure I always connect to the server I want." (with no root certificate: no check of
 *   the server's certificate).
 * - `verify-ca`: "... I want to be sure that I connect to a server that I trust."
 * - `verify-full`: "... I want to be sure that I connect to a server I trust, and that it's the one
 *   I specify."
 *
 * node-postgres 8 reads `prefer`, `require` and `verify-ca` as `verify-full` unless the URL also
 * says `uselibpqcompat=true` (with a "SECURITY WARNING" on stderr), so `sslmode=require` against a
 * hosted server whose certificate is its own (Heroku, many managed services) failed with
 * "self-signed certificate"; it knows no `allow`, and it never falls back to a plain connection.
 * So: the URL the user gave stays as they wrote it (psql must still read what `tradeledger db url`
 * prints, and `uselibpqcompat` is no libpq parameter); {@link settleSslMode} decides `allow` and
 * `prefer` once per command by trying, as libpq would; {@link pgConnectionString} gives pg the
 * libpq meaning of the rest (`no-verify`, pg's own word, stays pg's: encrypted, not checked).
 */

/** The URL's sslmode, or undefined when it names none (pg then connects without SSL). */
export function sslModeOf(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('sslmode') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The connection string pg is given for `url`: the libpq meaning of its sslmode
 * (`uselibpqcompat=true`), `allow` as a plain connection and `prefer` as an encrypted one when
 * {@link settleSslMode} has not already decided them. Everything else is left as written.
 *
 * @example
 * pgConnectionString('postgres://u@db:5432/x?sslmode=require')
 * // 'postgres://u@db:5432/x?sslmode=require&uselibpqcompat=true'
 */
export function pgConnectionString(url: string): string {
  const mode = sslModeOf(url);
  if (mode === undefined) return url;
  if (new URL(url).searchParams.has('uselibpqcompat')) return url;
  if (mode === 'allow') return withParameters(url, { sslmode: 'disable' });
  if (mode === 'prefer' || mode === 'require' || mode === 'verify-ca' || mode === 'verify-full') return withParameters(url, { uselibpqcompat: 'true' });
  return url;
}

/**
 * `url` with the SSL settings libpq takes from the environment when the URL names none
 * (https://www.postgresql.org/docs/15/libpq-envars.html): PGSSLMODE as `sslmode`, PGSSLROOTCERT,
 * PGSSLCERT and PGSSLKEY as `sslrootcert`, `sslcert` and `sslkey`. pg alone reads only
 * PGSSLMODE, and as verify-full. The URL's own parameters win.
 *
 * @example
 * withSslModeOf('postgres://u@db/x', { PGSSLMODE: 'require' }) // 'postgres://u@db/x?sslmode=require'
 */
export function withSslModeOf(url: string, env: NodeJS.ProcessEnv): string {
  const given = new URL(url).searchParams;
  const added: Record<string, string> = {};
  for (const [variable, parameter] of [['PGSSLMODE', 'sslmode'], ['PGSSLROOTCERT', 'sslrootcert'], ['PGSSLCERT', 'sslcert'], ['PGSSLKEY', 'sslkey']] as const) {
    const value = env[variable]?.trim();
    if (value && !given.has(parameter)) added[parameter] = encodeURIComponent(value);
  }
  return Object.keys(added).length === 0 ? url : withParameters(url, added);
}

const knownModes = new Set<string>(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']);
const fileParameters = ['sslrootcert', 'sslcert', 'sslkey'] as const;

/**
 * Refuses, before any connection, what pg would otherwise throw from deep inside (a "bug"): an
 * sslmode libpq does not know, a certificate file that cannot be read, `verify-ca` without the
 * root certificate it checks against.
 */
export function checkSslSettings(url: string): void {
  const parsed = new URL(url);
  const mode = parsed.searchParams.get('sslmode');
  const bad = (message: string, hint: string) => new TradeledgerError('CONFIG_DATABASE_URL', `DATABASE_URL: ${message}`, { kind: 'config', hint });
  if (mode !== null && !knownModes.has(mode)) {
    throw bad(`sslmode "${mode}" is not an SSL mode`, 'Write one of disable, allow, prefer, require, verify-ca or verify-full (https://www.postgresql.org/docs/current/libpq-ssl.html).');
  }
  for (const name of fileParameters) {
    const file = parsed.searchParams.get(name);
    if (file === null) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch {
      throw bad(`${name} "${file}" cannot be read`, `Give ${name} the path of a readable PEM file (the one your PostgreSQL provider publishes, for sslrootcert), or take ${name} out of DATABASE_URL.`);
    }
  }
  if (mode === 'verify-ca' && !parsed.searchParams.has('sslrootcert')) {
    throw bad('sslmode=verify-ca checks the server against a root certificate, and none is given', 'Add sslrootcert=/path/to/ca.pem (your provider publishes it), or use sslmode=verify-full to check against the system\'s certificate authorities, or sslmode=require to encrypt without a check.');
  }
}

/**
 * `url` with `allow` or `prefer` decided by trying, as libpq does: `prefer` tries an encrypted
 * connection (not checked, as libpq's `prefer`), and on failure a plain one; `allow` the other
 * way round. Returns the URL with the sslmode that connected (`require` or `disable`), so every
 * connection of the command is of one kind; when neither connects, `url` as it was, and the
 * command reports its own connection error. Any other mode is returned unchanged, untried.
 *
 * @example
 * await settleSslMode('postgres://u@127.0.0.1/x?sslmode=prefer', tryConnect) // '...?sslmode=disable' on a server without SSL
 */
export async function settleSslMode(url: string, connects: (url: string) => Promise<boolean>): Promise<string> {
  const mode = sslModeOf(url);
  if (mode !== 'prefer' && mode !== 'allow') return url;
  const order = mode === 'prefer' ? ['require', 'disable'] : ['disable', 'require'];
  for (const m of order) {
    const candidate = withParameters(url, { sslmode: m });
    if (await connects(candidate)) return candidate;
  }
  return url;
}
