import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exchange answer as it passes through the proxy, offered to a rewrite. */
export interface ProxiedAnswer {
  /** The request path without the query, e.g. `/api/v2/spot/trade/fills`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** How many requests for this path (any query) the proxy has forwarded so far, this one included (1-based). */
  readonly count: number;
  /** This request's page within its window: 1 without `idLessThan`, else 1 + the pages seen before it with the same window. */
  readonly page: number;
  readonly status: number;
  /** The body exactly as the sandbox sent it. */
  readonly body: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: any;
}

/**
 * What a rewrite answers with: undefined to pass the answer on unchanged; an object to send as
 * JSON; a string or Buffer to send as the body verbatim (e.g. invalid UTF-8 bytes).
 */
export type Rewrite = (answer: ProxiedAnswer) => unknown;

/** A running proxy in front of a sandbox. */
export interface MutatingProxy {
  /** Give this to the sync as its base URL. */
  readonly baseUrl: string;
  /** Replaces the rewrite (undefined: pass everything through). */
  rewrite(fn: Rewrite | undefined): void;
  /** Requests rewritten so far (the rewrite returned something). */
  readonly rewritten: number;
  close(): Promise<void>;
}

/**
 * A small HTTP proxy between the sync and the real sandbox that lets a test change chosen
 * answers, as a buggy API release or a hostile exchange would: replace a page's JSON, repeat an
 * earlier page, alter records, send bytes that are not UTF-8. Requests (method, path, query,
 * headers with their signature, body) go to the sandbox unchanged, so signing, rate limits and
 * faults are the sandbox's own. It listens on 127.0.0.1, port 0.
 *
 * @example
 * const proxy = await startMutatingProxy(sandbox.baseUrl);
 * proxy.rewrite((a) => a.path.endsWith('/spot/trade/fills') && a.page === 2 ? firstPage : undefined);
 * await runSync(testSyncOptions(sandbox, db, [], { baseUrl: proxy.baseUrl }));
 * await proxy.close();
 */
export async function startMutatingProxy(targetBaseUrl: string): Promise<MutatingProxy> {
  const target = new URL(targetBaseUrl);
  let fn: Rewrite | undefined;
  let rewritten = 0;
  const counts = new Map<string, number>();
  const pages = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      // Identity bodies only, so a rewrite sees the text the sandbox wrote.
      delete headers['accept-encoding'];
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => body.push(c));
        up.on('end', () => {
          const raw = Buffer.concat(body);
          const count = (counts.get(url.pathname) ?? 0) + 1;
          counts.set(url.pathname, count);
          const q = new URLSearchParams(url.searchParams);
          const cursor = q.get('idLessThan');
          q.delete('idLessThan');
          const windowKey = `${url.pathname}?${q.toString()}`;
          const page = cursor === null ? 1 : (pages.get(windowKey) ?? 1) + 1;
          pages.set(windowKey, page);
          let json: unknown;
          try {
            json = JSON.parse(raw.toString('utf8'));
          } catch {
            json = undefined;
          }
          const replaced = fn?.({ path: url.pathname, query: url.searchParams, count, page, status: up.statusCode ?? 502, body: raw, json });
          const out = replaced === undefined ? raw
            : Buffer.isBuffer(replaced) ? replaced
              : typeof replaced === 'string' ? Buffer.from(replaced, 'utf8') : Buffer.from(JSON.stringify(replaced), 'utf8');
          if (replaced !== undefined) rewritten++;
          const outHeaders = { ...up.headers, 'content-length': String(out.length) };
          delete outHeaders['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, outHeaders);
          res.end(out);
        });
        up.on('error', () => res.destroy());
      });
      // A dropped connection from the sandbox (a fault) is passed on as a dropped connection.
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    rewrite: (next) => { fn = next; },
    get rewritten() { return rewritten; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
