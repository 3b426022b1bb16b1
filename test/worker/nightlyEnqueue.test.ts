import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { jobsLeft, startWorker, stopWorkers, waitFor } from '../support/workerProcesses.js';
import type { WorkerProcess } from '../support/workerProcesses.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=5', accounts: 3 });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await stopWorkers(workers);
  await sandbox?.close();
  await fresh?.drop();
});

describe('the schedule in the config file', () => {
  // Every minute rather than nightly, so the engine's cron fires within a minute of the start.
  it('enqueues every account through the engine\'s own cron, once per tick across all workers', async () => {
    const { file, env, accounts } = writeFirmConfig(sandbox, { schedule: '* * * * *', sync: { safetyLagSeconds: 0, streams: ['deposits'] } });
    const cliEnv = { ...env, DATABASE_URL: fresh.url };
    workers = [startWorker(file, cliEnv), startWorker(file, cliEnv)];
    await waitFor('a scheduled sync of every account', async () => {
      const { rows } = await sql<{ n: string }>`SELECT count(DISTINCT u)::text AS n FROM sync_runs, unnest(account_uids) u WHERE status = 'ok'`.execute(fresh.db);
      return Number(rows[0]!.n) === accounts.length && (await jobsLeft(fresh.db)).length === 0;
    }, 170_000); // up to a minute to the next tick, then two workers start and sync beside other work
    await stopWorkers(workers);
    const enqueued = workers.flatMap((w) => w.events()).filter((e) => e.type === 'schedule-enqueued');
    // Two workers run the cron, but the engine schedules each tick once.
    expect(enqueued.length).toBeGreaterThanOrEqual(1);
    const ticks = enqueued.map((e) => e.tick);
    expect(ticks.every((t) => typeof t === 'string')).toBe(true);
    expect(new Set(ticks).size, `each tick enqueued once: ${ticks.join(', ')}`).toBe(ticks.length);
    expect(enqueued.every((e) => e.accounts === 3)).toBe(true);
    const runs = await sql<{ uid: string; n: string }>`SELECT u AS uid, count(*)::text AS n FROM sync_runs, unnest(account_uids) u GROUP BY u`.execute(fresh.db);
    expect(runs.rows.length).toBe(3);
    for (const r of runs.rows) expect(Number(r.n)).toBeLessThanOrEqual(ticks.length);
    const known = await sql<{ identifier: string }>`SELECT identifier FROM graphile_worker._private_known_crontabs`.execute(fresh.db);
    expect(known.rows.map((r) => r.identifier)).toEqual(['tradeledger_nightly_sync']);
  }, 240_000);
});
