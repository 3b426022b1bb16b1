import { isIP } from 'node:net';
import { TradeledgerError } from '../errors.js';

/**
 * The HTTP proxy the exchange is reached through, from the environment variables curl, pip, npm
 * and most tools read (https://curl.se/docs/manpage.html#ENVIRONMENT): `https_proxy` /
 * `HTTPS_PROXY` for an https origin, `http_proxy` / `HTTP_PROXY` for an http one (the lower-case
 * name first, as curl reads it), and `no_proxy` / `NO_PROXY`: a comma-separated list of host
 * names, each matching that host and every host under it (`example.com` and `.example.com` both
 * match `api.example.com`), a host:port, or `*` for all. A loopback origin (127.0.0.0/8, ::1,
 * localhost: the sandbox, a local tunnel) is never proxied: a proxy elsewhere cannot reach this
 * machine's loopback, and `tradeledger demo` must work behind a corporate proxy too.
 *
 * @example
 * proxyFor('https://api.example.com', { HTTPS_PROXY: 'http://proxy.corp:3128' }) // 'http://proxy.corp:3128'
 * proxyFor('http://127.0.0.1:8080', { HTTP_PROXY: 'http://proxy.corp:3128' })    // undefined
 */
export function proxyFor(origin: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const target = new URL(origin);
  const https = target.protocol === 'https:';
  const name = https ? 'https_proxy' : 'http_proxy';
  const proxy = (env[name] ?? env[name.toUpperCase()] ?? '').trim();
  if (proxy === '') return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (loopback(host)) return undefined;
  const port = target.port || (https ? '443' : '80');
  if (excluded(host, port, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw proxyProblem(https ? 'HTTPS_PROXY' : 'HTTP_PROXY', 'is not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw proxyProblem(https ? 'HTTPS_PROXY' : 'HTTP_PROXY', `is a ${parsed.protocol.slice(0, -1)} proxy; tradeledger speaks to HTTP and HTTPS proxies only`);
  }
  return parsed.toString();
}

/**
 * The proxy URL with its password hidden, for a message.
 *
 * @example
 * shownProxy('http://me:s3cret@proxy.corp:3128/') // 'http://me:***@proxy.corp:3128/'
 */
export function shownProxy(proxy: string): string {
  const parsed = new URL(proxy);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function loopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function excluded(host: string, port: string, noProxy: string): boolean {
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    // host, host:port, [v6]:port, or a bare v6 address (more than one colon, no brackets)
    const [entryHost, entryPort] = (entry.split(':').length > 2 && !entry.startsWith('[')
      ? [entry, undefined]
      : /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry)!.slice(1)) as [string, string | undefined];
    if (entryPort !== undefined && entryPort !== port) continue;
    const bare = entryHost.replace(/^\*?\./, '');
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

function proxyProblem(variable: string, what: string): TradeledgerError {
  return new TradeledgerError('CONFIG_INVALID', `${variable} ${what}`, {
    kind: 'config', hint: `Set ${variable} to the proxy's URL, e.g. http://proxy.example:3128 (with user:password@ before the host if it asks for them), or unset it to reach the exchange directly.`,
  });
}
