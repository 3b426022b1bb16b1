import { spawn } from 'node:child_process';
import { mkdir, open, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { TradeledgerError } from '../errors.js';
import { embeddedBinaries } from './embeddedBinaries.js';
import type { embeddedPaths } from './embeddedServer.js';
import type { EmbeddedServerOptions } from './embeddedServerOptions.js';
import { livePostmaster } from './postmasterPid.js';
import { postgresUser } from './postgresUser.js';

type EmbeddedPaths = ReturnType<typeof embeddedPaths>;

/**
 * Starts `postgres` on an initialised cluster, detached so it outlives this process, as the
 * postgres user when we are root, and waits until it accepts connections. Returns its pid.
 *
 * @example
 * const pid = await startPostgres(options, embeddedPaths(options.dataDir));
 */
export async function startPostgres(options: EmbeddedServerOptions, paths: EmbeddedPaths): Promise<number> {
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

/**
 * Waits for a server another process is starting to become ready.
 *
 * @example
 * await waitUntilReady(embeddedPaths(dir), live.pid);
 */
export async function waitUntilReady(paths: EmbeddedPaths, pid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const live = await livePostmaster(paths.cluster);
    if (live?.pid === pid && live.status === 'ready') return;
    if (!live || live.status === 'stopping' || Date.now() > deadline) {
      throw new TradeledgerError('DB_START', `the embedded PostgreSQL (pid ${pid}) is ${live?.status ?? 'gone'}, not ready. Last log lines:\n  ${await logTail(paths.log)}`, {
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
