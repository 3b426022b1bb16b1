import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { TradeledgerError } from '../errors.js';
import { embeddedBinaries } from './embeddedBinaries.js';
import { embeddedServerAt, embeddedPaths, findEmbeddedServer, readCredentials } from './embeddedServer.js';
import type { EmbeddedServer } from './embeddedServer.js';
import type { EmbeddedServerOptions } from './embeddedServerOptions.js';
import { initialiseCluster } from './initialiseCluster.js';
import { livePostmaster } from './postmasterPid.js';
import { portInUse } from './portInUse.js';
import { postgresUser } from './postgresUser.js';
import { withStartLock } from './startLock.js';

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
  const running = await findEmbeddedServer(options);
  if (running) return running;
  const server = await withStartLock(options.dataDir, async () => {
    // Someone else may have started it while we waited for the lock.
    const again = await findEmbeddedServer(options);
    if (again) return again;
    const paths = embeddedPaths(options.dataDir);
    const starting = await livePostmaster(paths.cluster);
    if (!starting && await portInUse(options.port)) {
      throw new TradeledgerError('DB_PORT_IN_USE', `port ${options.port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL for ${options.dataDir} cannot start there`, {
        kind: 'config',
        hint: 'Pick a free port with --port or TRADELEDGER_PG_PORT (for example 54330), or stop the program using that port.',
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
      await waitUntilReady(paths.cluster, starting.pid, paths.log);
      return embeddedServerAt(options.dataDir, starting.pid, starting.port, credentials, false);
    }
    log(`starting the embedded PostgreSQL on 127.0.0.1:${options.port} (data in ${options.dataDir}; stop it with \`tradeledger db stop\`)`);
    const pid = await startServer(options, paths);
    return embeddedServerAt(options.dataDir, pid, options.port, credentials, true);
  });
  await createAppDatabase(server);
  return server;
}

async function startServer(options: EmbeddedServerOptions, paths: ReturnType<typeof embeddedPaths>): Promise<number> {
  const { postgres } = await embeddedBinaries();
  const user = await postgresUser();
  await mkdir(options.dataDir, { recursive: true });
  const logFile = await open(paths.log, 'a');
  const flags = [
    '-D', paths.cluster, '-p', String(options.port),
    '-c', 'listen_addresses=127.0.0.1',
    // TCP only: a socket path under a deep data folder can exceed the 107-byte limit.
    '-c', 'unix_socket_directories=',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'] : []),
  ];
  // detached: its own session, so a Ctrl-C meant for this command does not stop the server.
  // A minimal environment: the server has no business seeing API secrets in ours.
  const child = spawn(postgres, flags, {
    detached: true,
    stdio: ['ignore', logFile.fd, logFile.fd],
    cwd: paths.cluster,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    ...(user ?? {}),
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => { exited = code; });
  child.once('error', () => { exited = -1; });
  child.unref();
  await logFile.close();
  const pid = child.pid ?? 0;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const live = await livePostmaster(paths.cluster);
    if (live?.pid === pid && live.status === 'ready') return pid;
    if (exited !== undefined || Date.now() > deadline) {
      throw new TradeledgerError('DB_START', `the embedded PostgreSQL did not start (${exited !== undefined ? `exited with code ${exited}` : 'not ready after 60 s'}). Last log lines:\n  ${await logTail(paths.log)}`, {
        kind: 'database',
        hint: `Read ${paths.log} for the full log. If the data folder is damaged, stop the server and move ${options.dataDir} aside to start afresh.`,
      });
    }
    await sleep(100);
  }
}

async function waitUntilReady(cluster: string, pid: number, log: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const live = await livePostmaster(cluster);
    if (live?.pid === pid && live.status === 'ready') return;
    if (!live || live.status === 'stopping' || Date.now() > deadline) {
      throw new TradeledgerError('DB_START', `the embedded PostgreSQL (pid ${pid}) is ${live?.status ?? 'gone'}, not ready. Last log lines:\n  ${await logTail(log)}`, {
        kind: 'database', hint: 'Run the command again; if it keeps failing run `tradeledger db stop` first.',
      });
    }
    await sleep(100);
  }
}

async function logTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '(no log)');
  return text.trimEnd().split('\n').slice(-6).join('\n  ');
}

async function createAppDatabase(server: EmbeddedServer): Promise<void> {
  const client = new pg.Client({ connectionString: server.url('postgres') });
  client.on('error', () => {});
  await client.connect();
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
