import net from 'node:net';

/** A TCP proxy in front of PostgreSQL that sees every connection a child process makes. */
export interface TcpProxy {
  /** The database URL through the proxy. */
  url: string;
  /** Connections open now (both sides still up). */
  open(): number;
  /** Bytes the server sent so far, over all connections. */
  bytesFromServer(): number;
  /** Bytes the clients sent so far, over all connections. */
  bytesToServer(): number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Cuts every open connection at once, as a server restart or a network fault would. */
  cutAll(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free local port forwarding to the server of `url`. A connection counts
 * as closed as soon as either side ends it, so when a client has ended its pool (the server
 * answers Terminate by closing), the proxy knows before the client can print its next line.
 *
 * `cutAfterBytesToServer`: cut every connection once the clients have sent that many bytes.
 * `refuseConnections`: the connections (1 = the first accepted) closed as soon as they open, as a
 * server that answers "too many clients" would; the others are served.
 *
 * @example
 * const proxy = await tcpProxy(fresh.url); await runCli([...], { DATABASE_URL: proxy.url });
 */
export async function tcpProxy(url: string, options: { cutAfterBytesToServer?: number; refuseConnections?: number[] } = {}): Promise<TcpProxy> {
  const target = new URL(url);
  const pairs = new Set<{ a: net.Socket; b: net.Socket; open: boolean }>();
  let fromServer = 0;
  let toServer = 0;
  let accepted = 0;
  const server = net.createServer((a) => {
    accepted += 1;
    if (options.refuseConnections?.includes(accepted)) { a.destroy(); return; }
    const b = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { a, b, open: true };
    pairs.add(pair);
    const done = () => {
      pair.open = false;
      a.destroy();
      b.destroy();
    };
    a.on('error', done).on('end', done).on('close', done);
    b.on('error', done).on('end', done).on('close', done);
    b.on('data', (d: Buffer) => { fromServer += d.length; });
    // A cut at a byte count, not at a moment: deterministic however fast the client runs.
    a.on('data', (d: Buffer) => {
      toServer += d.length;
      if (options.cutAfterBytesToServer !== undefined && toServer > options.cutAfterBytesToServer) {
        for (const p of pairs) { p.open = false; p.a.destroy(); p.b.destroy(); }
      }
    });
    a.pipe(b);
    b.pipe(a);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    open: () => [...pairs].filter((p) => p.open).length,
    bytesFromServer: () => fromServer,
    bytesToServer: () => toServer,
    accepted: () => accepted,
    cutAll: () => { for (const p of pairs) { p.open = false; p.a.destroy(); p.b.destroy(); } },
    close: () => new Promise<void>((resolve) => {
      for (const p of pairs) { p.a.destroy(); p.b.destroy(); }
      server.close(() => resolve());
    }),
  };
}
