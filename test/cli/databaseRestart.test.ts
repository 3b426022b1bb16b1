import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { exitCodes } from '../../src/errors.js';
import { runCli, startCli } from '../support/runCli.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;

beforeAll(async () => {
  // Slow answers keep the sync busy long enough for the "restart" to land mid-run.
  sandbox = await startTestSandbox({ faults: 'slow=0.5:300' });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

// What a PostgreSQL restart does to a client: every session of the sync is terminated (57P01,
// "terminating connection due to administrator command"), again and again for a while.
async function restartWindow(url: string, ms: number): Promise<number> {
  const killer = new pg.Client({ connectionString: url, application_name: 'test killer' });
  killer.on('error', () => {});
  await killer.connect();
  let killed = 0;
  try {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const { rows } = await killer.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'tradeledger%' AND application_name <> 'tradeledger-test'`);
      killed += rows.filter((r) => r.ok).length;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await killer.end();
  }
  return killed;
}

describe('a PostgreSQL restart in the middle of a sync', () => {
  it('ends with one line naming the database problem, exit 4, the JSON summary, and the run marked failed', async () => {
    const { file, env } = writeSandboxConfig(sandbox, { safetyLagSeconds: 0, concurrency: 8 }, { rateLimit: false });
    const cliEnv = { ...env, DATABASE_URL: fresh.url };
    const { child, done } = startCli(['sync', '--json', '--config', file, '--since', String(sandbox.world.now() - 200 * DAY_MS)], cliEnv);
    let pages = 0;
    let killing: Promise<number> | undefined;
    child.stderr?.on('data', (d: Buffer) => {
      pages += String(d).split('"type":"page"').length - 1;
      if (pages >= 3 && killing === undefined) killing = restartWindow(fresh.url, 1500);
    });
    const r = await done;
    expect(killing, 'the sync wrote pages before the restart').toBeDefined();
    expect(await killing, 'sessions were terminated').toBeGreaterThan(0);

    expect(r.stderr).not.toMatch(/Unhandled 'error' event|\n\s+at |unexpected error|This is a bug/);
    expect(r.code, r.stderr.slice(-3000)).toBe(exitCodes.database);
    const messages = r.stderr.split('\n').filter((l) => l.startsWith('tradeledger: '));
    expect(messages.at(-1)).toMatch(/tradeledger: .*PostgreSQL.*(lost|terminat)/);
    const summary = JSON.parse(r.stdout) as { status: string; runId: string; errors: { code: string }[] };
    expect(summary.status).toBe('failed');
    expect(summary.errors.some((e) => e.code === 'DB_CONNECTION_LOST')).toBe(true);

    const runs = await sql<{ id: string; status: string; finished: boolean }>`SELECT id::text, status, finished_at IS NOT NULL AS finished FROM sync_runs ORDER BY id`.execute(fresh.db);
    expect(runs.rows).toEqual([{ id: summary.runId, status: 'failed', finished: true }]);
    const status = await runCli(['status'], cliEnv);
    expect(status.code, status.stderr).toBe(exitCodes.ok);
    expect(status.stdout.split('\n')[0]).toMatch(new RegExp(`^last run ${summary.runId}: failed`));
    expect(status.stdout).not.toMatch(/running/);

    // Nothing was lost: the next run (PostgreSQL is back) resumes and completes.
    const again = await runCli(['sync', '--json', '--config', file, '--since', String(sandbox.world.now() - 200 * DAY_MS)], cliEnv);
    expect(again.code, again.stderr.slice(-2000)).toBe(exitCodes.ok);
  }, 120_000);

  it('status never calls a run "running" when the connection holding its locks is gone (a process that died with its database)', async () => {
    const { rows } = await sql<{ id: string }>`INSERT INTO sync_runs DEFAULT VALUES RETURNING id::text AS id`.execute(fresh.db);
    const id = rows[0]!.id;
    const dead = await runCli(['status'], { DATABASE_URL: fresh.url });
    expect(dead.stdout.split('\n')[0]).toMatch(new RegExp(`^last run ${id}: interrupted`));
    // While the connection that holds the run's account locks is open, the same row is a running sync.
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    try {
      await holder.query('UPDATE sync_runs SET backend_pid = pg_backend_pid() WHERE id = $1::bigint', [id]);
      const live = await runCli(['status', '--json'], { DATABASE_URL: fresh.url });
      expect((JSON.parse(live.stdout) as { lastRun: { id: string; status: string } }).lastRun).toMatchObject({ id, status: 'running' });
    } finally {
      await holder.end();
    }
  }, 180_000);
});

