import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { TradeledgerError } from '../errors.js';
import { portalApp } from './portalApp.js';
import type { PortalOptions } from './portalApp.js';
import { systemErrorWords } from '../systemErrorWords.js';

/** A running portal. */
export interface RunningPortal {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the portal's HTTP server on a host and port (0: any free port).
 *
 * @example
 * const portal = await startPortal({ databaseUrl: url, host: '127.0.0.1', port: 8080 });
 * console.log(`open ${portal.url}`); await portal.close();
 */
export async function startPortal(options: PortalOptions & { host: string; port: number }): Promise<RunningPortal> {
  const { app, close } = await portalApp(options);
  const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }) as Server;
  // An idle keep-alive connection is kept 65 s, not Node's 5 s: a reverse proxy (nginx keeps its
  // upstream connections 60 s) or a client that sends on a connection just as the server closes it
  // gets a reset instead of an answer (a download POST failed so, ECONNRESET, in a test run).
  // The header timeout stays above it, as Node requires.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (err: NodeJS.ErrnoException) => {
      void close();
      reject(new TradeledgerError('PORTAL_LISTEN', `cannot listen on ${options.host}:${options.port}: ${systemErrorWords(err)}`, {
        kind: 'config', cause: err, hint: err.code === 'EADDRINUSE' ? 'Another program uses that port; pass --port with a free one.' : 'Check --host and --port.',
      }));
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await close();
    },
  };
}
