import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { embeddedServerOptions } from '../../src/db/embeddedServerOptions.js';
import { ensureEmbeddedServer } from '../../src/db/ensureEmbeddedServer.js';
import { stopEmbeddedServer } from '../../src/db/stopEmbeddedServer.js';
import { redactUrl } from '../../src/db/redactUrl.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the server this project's tests create their databases on. */
    databaseUrl: string;
  }
}

/** Where the `service` project's tests create their databases. */
export const serviceDatabaseUrl = withDefaultUser(process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test');

/**
 * vitest globalSetup for both projects. `service` uses the PostgreSQL 15 service (or
 * TEST_DATABASE_URL). `embedded` starts one embedded server for the whole run in
 * `.tradeledger/test-pg` on port 54339 (TRADELEDGER_TEST_PG_PORT overrides) and leaves it
 * running, so the next run starts in milliseconds and parallel runs share it; under CI=true a
 * server this run started is stopped at teardown, leaving no daemon behind.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name !== 'embedded') {
    await checkReachable(serviceDatabaseUrl);
    project.provide('databaseUrl', serviceDatabaseUrl);
    await sweepStaleDatabases(serviceDatabaseUrl);
    return async () => {};
  }
  const options = embeddedServerOptions({
    dataDir: '.tradeledger/test-pg',
    port: process.env.TRADELEDGER_TEST_PG_PORT || 54339,
    fast: true,
    env: {},
  });
  const server = await ensureEmbeddedServer(options, (m) => process.stderr.write(`[test-pg] ${m}\n`));
  const url = server.url('postgres');
  await offTheHour(url);
  project.provide('databaseUrl', url);
  await sweepStaleDatabases(url);
  return async () => {
    if (process.env.CI && server.startedNow) await stopEmbeddedServer(options);
  };
}

/**
 * The embedded project's server is set to India's zone (+05:30), as initdb sets a user's embedded
 * server to their machine's zone: half the suite then runs every command against a server whose
 * sessions default to a zone off the whole hour, where `date_trunc('hour')`, `::date` and the text
 * of a timestamptz differ from UTC (src/db/pools.ts makes every session of ours UTC). The service
 * project keeps the machine's UTC.
 */
async function offTheHour(url: string): Promise<void> {
  const zone = 'Asia/Kolkata';
  const session = async <T>(work: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    try { return await work(client); } finally { await client.end().catch(() => {}); }
  };
  await session(async (c) => { await c.query(`ALTER SYSTEM SET timezone = '${zone}'`); await c.query('SELECT pg_reload_conf()'); });
  // The reload reaches the postmaster a moment later; sessions started after it have the zone.
  for (let i = 0; i < 100; i++) {
    if ((await session((c) => c.query<{ tz: string }>("SELECT current_setting('TimeZone') AS tz"))).rows[0]!.tz === zone) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the embedded test server did not take timezone = '${zone}'`);
}

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`The service project needs PostgreSQL at ${redactUrl(url)} (${(err as Error).message}). Start it with \`pg_ctlcluster --skip-systemctl-redirect 15 main start\`, or set TEST_DATABASE_URL.`);
  } finally {
    await client.end().catch(() => {});
  }
}

// Databases left by crashed runs: test and half-built template databases older than two hours,
// and templates older than a day (a newer sql/ has its own). Younger ones may belong to a run still going.
async function sweepStaleDatabases(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string; comment: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname ~ '^tl_(test|build|tpl)_'`,
    );
    const now = Date.now();
    for (const { datname, comment } of rows) {
      const template = datname.startsWith('tl_tpl_');
      const born = template ? Date.parse(comment ?? '') : parseInt(datname.split('_')[2] ?? '', 36);
      const maxAge = template ? 24 * 3600_000 : 2 * 3600_000;
      if (Number.isFinite(born) && now - born > maxAge) {
        if (datname.startsWith('tl_tpl_')) await client.query(`ALTER DATABASE "${datname}" IS_TEMPLATE false`).catch(() => {});
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
      }
    }
  } finally {
    await client.end().catch(() => {});
  }
}
