// Behind a proxy, as an operator in a company network runs the sync: the environment variables
// curl documents (https://curl.se/docs/manpage.html#ENVIRONMENT): "http_proxy [protocol://]<host>[:port]
// Sets the proxy server to use for HTTP.", "HTTPS_PROXY [protocol://]<host>[:port] Sets the proxy
// server to use for HTTPS.", "NO_PROXY <comma-separated list of hosts/domains> list of host names
// that should not go through any proxy." Node's HTTP client reads none of them by itself, so a
// machine whose only way out is a proxy could not sync at all.
//
// The proxy here is a stand-in on loopback that answers CONNECT (how an HTTP client asks a proxy
// for a tunnel, RFC 9110 section 9.3.6) by opening a TCP connection to the sandbox, whatever host
// it is asked for. The sync is pointed at a name that resolves nowhere (exchange.invalid, RFC 2606's
// reserved TLD): only through the proxy can it get an answer, and a loopback address would
// (rightly) not be proxied.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { exitCodes } from '../../src/errors.js';
import { proxyFor } from '../../src/api/proxySettings.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runCli } from '../support/runCli.js';

const proxyPassword = 'Pr0xyS3cretWord';
let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let proxy: http.Server;
let proxyPort: number;
const tunnels: { target: string; authorization: string | undefined }[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  const sandboxPort = Number(new URL(sandbox.baseUrl).port);
  proxy = http.createServer((_req, res) => { res.writeHead(502).end('this stand-in only tunnels'); });
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push({ target: req.url ?? '', authorization: req.headers['proxy-authorization'] });
    if (req.headers['proxy-authorization'] !== `Basic ${Buffer.from(`ledger:${proxyPassword}`).toString('base64')}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(sandboxPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as net.AddressInfo).port;
  const main = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
  env = {
    DATABASE_URL: fresh.url, TRADELEDGER_BASE_URL: `http://exchange.invalid:${sandboxPort}`, TRADELEDGER_API_KEY: main.apiKey,
    TRADELEDGER_API_SECRET: main.secretKey, TRADELEDGER_API_PASSPHRASE: main.passphrase,
  };
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await sandbox?.close();
  await fresh?.drop();
});

describe('sync through an HTTP proxy named by the environment', () => {
  it('reaches the exchange only through HTTP_PROXY, with its user and password, and keeps the password out of everything', async () => {
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, HTTP_PROXY: `http://ledger:${proxyPassword}@127.0.0.1:${proxyPort}` });
    expect(r.stderr).not.toContain(proxyPassword);
    expect(r.stdout).not.toContain(proxyPassword);
    expect(r.code).toBe(exitCodes.ok);
    expect(tunnels.length).toBeGreaterThan(0);
    expect(tunnels.every((t) => t.target === `exchange.invalid:${new URL(sandbox.baseUrl).port}`)).toBe(true);
    const db = new pg.Client({ connectionString: fresh.url });
    await db.connect();
    try {
      expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM deposits')).rows[0]!.n)).toBeGreaterThan(0);
      // Nothing the sync stored names the proxy's password.
      const dump = await db.query<{ t: string }>(`SELECT coalesce(string_agg(r::text, ' '), '') AS t FROM (SELECT * FROM sync_runs) r`);
      expect(dump.rows[0]!.t).not.toContain(proxyPassword);
    } finally {
      await db.end();
    }
  });

  it('NO_PROXY takes a host out of the proxy: the name then resolves nowhere, and the error says where to look', async () => {
    const before = tunnels.length;
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, HTTP_PROXY: `http://ledger:${proxyPassword}@127.0.0.1:${proxyPort}`, NO_PROXY: 'localhost,.invalid' });
    expect(tunnels.length).toBe(before);
    expect(r.code).not.toBe(exitCodes.ok);
    expect(r.stderr).toContain('exchange.invalid');
    expect(r.stderr).not.toContain(proxyPassword);
  });

  it('a proxy that is down is named in the fix, its password hidden', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, HTTP_PROXY: `http://ledger:${proxyPassword}@127.0.0.1:${deadPort}` });
    expect(r.code).not.toBe(exitCodes.ok);
    expect(r.stderr + r.stdout).toContain(`the proxy (http://ledger:***@127.0.0.1:${deadPort}/, from HTTPS_PROXY or HTTP_PROXY; NO_PROXY to go around it)`);
    expect(r.stderr + r.stdout).not.toContain(proxyPassword);
  });
});

describe('which origins go through the proxy', () => {
  const proxied = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://proxy.corp:8080' };
  it('by scheme, never for loopback, and as NO_PROXY lists (a domain with its hosts, a host:port, *)', () => {
    expect(proxyFor('https://api.example.com', proxied)).toBe('http://proxy.corp:3128/');
    expect(proxyFor('http://api.example.com', proxied)).toBe('http://proxy.corp:8080/');
    expect(proxyFor('https://api.example.com', { https_proxy: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    for (const loop of ['http://127.0.0.1:8080', 'http://127.8.0.1', 'http://localhost:9', 'http://[::1]:80']) expect(proxyFor(loop, proxied), loop).toBeUndefined();
    expect(proxyFor('https://api.example.com', { ...proxied, NO_PROXY: 'example.com' })).toBeUndefined();
    expect(proxyFor('https://api.example.com', { ...proxied, NO_PROXY: '.example.com' })).toBeUndefined();
    expect(proxyFor('https://api.example.com', { ...proxied, NO_PROXY: 'other.com, example.com:443' })).toBeUndefined();
    expect(proxyFor('https://api.example.com', { ...proxied, NO_PROXY: 'example.com:8443' })).toBe('http://proxy.corp:3128/');
    expect(proxyFor('https://api.example.com', { ...proxied, NO_PROXY: 'ample.com' })).toBe('http://proxy.corp:3128/');
    expect(proxyFor('https://api.example.com', { ...proxied, no_proxy: '*' })).toBeUndefined();
    expect(() => proxyFor('https://api.example.com', { HTTPS_PROXY: 'socks5://proxy.corp:1080' })).toThrow(/HTTPS_PROXY is a socks5 proxy/);
  });
});
