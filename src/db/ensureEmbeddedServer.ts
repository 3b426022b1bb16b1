import { existsSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { createClient } from './pools.js';
import { databaseError } from './databaseError.js';
import { TradeledgerError } from '../errors.js';
import { embeddedServerAt, embeddedPaths, findEmbeddedServer, readCredentials } from './embeddedServer.js';
import type { EmbeddedServer } from './embeddedServer.js';
import type { EmbeddedServerOptions } from './embeddedServerOptions.js';
import { initialiseCluster } from './initialiseCluster.js';
import { livePostmaster } from './postmasterPid.js';
import { portInUse } from './portInUse.js';
import { startPostgres, waitUntilReady } from './startPostgres.js';
import { withStartLock } from './startLock.js';
import { systemErrorWords } from '../systemErrorWords.js';

/**
 * Makes sure the embedded PostgreSQL of a data folder is running, and returns it. Reuses a
 * server already running on that folder (whichever process started it); otherwise initialises
 * the cluster on first use and starts the server detached, so it outlives this process and
 * later commands (and psql) can connect. `stopEmbeddedServer()` ends it. Also creates the
 * `tradeledger` database.
 *
 * @example
 * const server = await ensureEmbeddedServer(embeddedServerOptions(), (m) => process.stderr.write(m + '\n'));
 * console.log(server.url()); // postgresql://postgres:…@127.0.0.1:54329/tradeledger
 */
export async function ensureEmbeddedServer(options: EmbeddedServerOptions, log: (message: string) => void = () => {}): Promise<EmbeddedServer> {
  // Even a running server gets the database check: its starter may not have created it yet.
  const server = (await findEmbeddedServer(options)) ?? await withStartLock(options.dataDir, async () => {
    // Someone else may have started it while we waited for the lock.
    const again = await findEmbeddedServer(options);
    if (again) return again;
    const paths = embeddedPaths(options.dataDir);
    const starting = await livePostmaster(paths.cluster);
    if (!starting && await portInUse(options.port)) {
      // The hint named `tradeledger db start --port`, a command that does not exist, and a port
      // (54330) that may be taken too: it now names one that is free as it is said.
      const free = await freePortAfter(options.port);
      throw new TradeledgerError('DB_PORT_IN_USE', `port ${options.port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL for ${options.dataDir} cannot start there`, {
        kind: 'config',
        hint: `${free === undefined ? 'Set TRADELEDGER_PG_PORT to a free port' : `Set TRADELEDGER_PG_PORT=${free} (free now)`} for every command that uses ${options.dataDir} (\`tradeledger db --port N ...\` for the db commands), or stop the program using port ${options.port}.`,
      });
    }
    let credentials = await readCredentials(paths.connection);
    if (!credentials) {
      if (starting || existsSync(join(paths.cluster, 'PG_VERSION'))) {
        // Never wipe a cluster: it may hold the only copy of someone's data.
        throw new TradeledgerError('DB_NO_CREDENTIALS', `${paths.connection} is missing, so the embedded PostgreSQL in ${paths.cluster} cannot be used`, {
          kind: 'config',
          hint: `Restore that file, or (if the data there is not needed) run \`tradeledger db stop\`, delete ${options.dataDir} and run the command again.`,
        });
      }
      log(`initialising a new embedded PostgreSQL in ${paths.cluster} (first use; takes a few seconds)`);
      // An empty folder left by an initialisation that failed early would make initdb refuse.
      await rm(paths.cluster, { recursive: true, force: true });
      credentials = { user: 'postgres', password: randomBytes(18).toString('base64url') };
      await initialiseCluster(paths.cluster, credentials.password);
      await writeFile(paths.connection, JSON.stringify(credentials) + '\n', { mode: 0o600 });
    }
    if (starting) {
      await waitUntilReady(paths, starting.pid);
      return embeddedServerAt(options.dataDir, starting.pid, starting.port, credentials, false);
    }
    log(`starting the embedded PostgreSQL on 127.0.0.1:${options.port} (data in ${options.dataDir}; stop it with \`tradeledger db stop\`)`);
    const pid = await startPostgres(options, paths);
    return embeddedServerAt(options.dataDir, pid, options.port, credentials, true);
  }).catch((err: unknown) => { throw dataFolderError(err, options.dataDir) ?? err; });
  await createAppDatabase(server);
  return server;
}

const folderCodes = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST', 'EDQUOT']);

/**
 * A data folder that cannot be made or written, named with where it is and the ways round it:
 * the default is `.tradeledger/pg` under the folder a command runs in, and a scheduler starts a
 * command in `/` (systemd without WorkingDirectory=) or a home it may not write. It was "This is
 * a bug" (EACCES from mkdir '/.tradeledger'). Undefined for any other error.
 */
function dataFolderError(err: unknown, dataDir: string): TradeledgerError | undefined {
  const e = err as { code?: unknown; path?: unknown };
  // A file call's error (it names its path), not a process's or a socket's.
  if (err instanceof TradeledgerError || typeof e?.code !== 'string' || !folderCodes.has(e.code) || typeof e.path !== 'string') return undefined;
  const where = e.path;
  const elsewhere = 'set TRADELEDGER_DATA_DIR to a folder you can write, or set DATABASE_URL to use a PostgreSQL server.';
  const file = e.code === 'ENOTDIR' || e.code === 'EEXIST' ? fileInTheWay(where) : undefined;
  if (file !== undefined) {
    return new TradeledgerError('DB_DATA_DIR', `cannot make the embedded PostgreSQL's data folder ${dataDir}: ${file} is a file, where a folder must be`, {
      kind: 'config', hint: statSyncOrUndefined(file)?.isFile() ? `Move or rename ${file} (tradeledger does not touch a file it did not make), or ${elsewhere}` : `S${elsewhere.slice(1)}`, cause: err,
    });
  }
  const room = e.code === 'ENOSPC' || e.code === 'EDQUOT' ? 'Free space on that disk, or ' : '';
  const owner = otherOwner(dataDir);
  return new TradeledgerError('DB_DATA_DIR', `cannot make or write the embedded PostgreSQL's data folder ${dataDir} (at ${where}: ${systemErrorWords(err)})${owner ?? ''}`, {
    kind: 'config',
    hint: `${owner ? 'Run the command as the user the folder belongs to, or ' : ''}${owner || room ? 'r' : 'R'}un the command from a folder you can write (the data folder is .tradeledger/pg under it; a scheduler starts in / unless told: cd in cron, WorkingDirectory= in systemd), or ${elsewhere}`,
    cause: err,
  });
}

/** The first of `path` and the folders above it that exists and is not a folder. */
function fileInTheWay(path: string): string | undefined {
  const chain: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    const info = statSyncOrUndefined(dir);
    if (info === undefined) return undefined;
    if (!info.isDirectory()) return dir;
  }
  return undefined;
}

/**
 * "; DIR belongs to uid N, not to this process's uid M" when the data folder, or the folder it is
 * made in (`.tradeledger`), exists and is another user's: made by a run as another user (root).
 */
function otherOwner(dataDir: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  for (const dir of [dataDir, dirname(dataDir)]) {
    const info = statSyncOrUndefined(dir);
    if (info !== undefined) return info.uid !== uid ? `; ${dir} belongs to uid ${info.uid}, not to this process's uid ${uid}` : undefined;
  }
  return undefined;
}

function statSyncOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

async function createAppDatabase(server: EmbeddedServer): Promise<void> {
  const client = createClient({ url: server.url('postgres'), name: 'embedded-setup' });
  await client.connect().catch((err: unknown) => { throw databaseError(err, server.url('postgres')); });
  try {
    const found = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'tradeledger'`);
    if (found.rowCount === 0) {
      // Two commands may race here. The loser gets duplicate_database, or a unique violation on
      // pg_database when both passed the check at once; either way the database now exists.
      await client.query('CREATE DATABASE tradeledger').catch((err: { code?: string }) => {
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

// The first port after `port` (up to 100 on) that nothing listens on, if any.
async function freePortAfter(port: number): Promise<number | undefined> {
  for (let p = port + 1; p <= Math.min(65535, port + 100); p++) if (!(await portInUse(p))) return p;
  return undefined;
}
