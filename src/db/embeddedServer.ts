import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbeddedServerOptions } from './embeddedServerOptions.js';
import { livePostmaster } from './postmasterPid.js';

/** A running embedded PostgreSQL, as found on disk. */
export interface EmbeddedServer {
  dataDir: string;
  pid: number;
  port: number;
  user: string;
  password: string;
  /** True when this call started it (false when it was already running). */
  startedNow: boolean;
  /** A URL psql and pg accept, for one database on this server. */
  url(database?: string): string;
}

/**
 * Files inside the data folder. `cluster/` belongs to the server (the postgres user, as root);
 * `connection.json` (the password, mode 600) and `server.log` are ours.
 *
 * @example
 * embeddedPaths('/x/.tradeledger/pg').log // '/x/.tradeledger/pg/server.log'
 */
export function embeddedPaths(dataDir: string) {
  return {
    cluster: join(dataDir, 'cluster'),
    connection: join(dataDir, 'connection.json'),
    log: join(dataDir, 'server.log'),
  };
}

/**
 * The embedded server of a data folder if it is running and ready, else undefined. Never starts
 * anything: `db stop` and `db status` use it to look without side effects.
 *
 * @example
 * const running = await findEmbeddedServer(embeddedServerOptions());
 * if (running) console.log(running.url());
 */
export async function findEmbeddedServer(options: Pick<EmbeddedServerOptions, 'dataDir'>): Promise<EmbeddedServer | undefined> {
  const paths = embeddedPaths(options.dataDir);
  const live = await livePostmaster(paths.cluster);
  if (!live || live.status !== 'ready') return undefined;
  const credentials = await readCredentials(paths.connection);
  if (!credentials) return undefined;
  return embeddedServerAt(options.dataDir, live.pid, live.port, credentials, false);
}

/**
 * Reads `connection.json`; written last during initialisation, so it also marks a finished one.
 *
 * @example
 * const c = await readCredentials(embeddedPaths(dir).connection); // { user: 'postgres', password: '…' }
 */
export async function readCredentials(file: string): Promise<{ user: string; password: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { user?: unknown; password?: unknown };
    if (typeof parsed.user === 'string' && typeof parsed.password === 'string') return { user: parsed.user, password: parsed.password };
  } catch {
    // missing or unreadable: not initialised
  }
  return undefined;
}

/**
 * The EmbeddedServer value for a server known to run on `port` with these credentials.
 *
 * @example
 * embeddedServerAt(dir, 4242, 54329, credentials, false).url() // 'postgresql://postgres:…@127.0.0.1:54329/tradeledger'
 */
export function embeddedServerAt(dataDir: string, pid: number, port: number, c: { user: string; password: string }, startedNow: boolean): EmbeddedServer {
  return {
    dataDir, pid, port, user: c.user, password: c.password, startedNow,
    url: (database = 'tradeledger') =>
      `postgresql://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
  };
}
