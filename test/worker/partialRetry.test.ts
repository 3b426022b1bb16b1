import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runCli } from '../support/runCli.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { jobsLeft, startWorker, stopWorkers, waitFor } from '../support/workerProcesses.js';
import type { WorkerProcess } from '../support/workerProcesses.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=5,transfers=5', accounts: 1 });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await stopWorkers(workers);
  await sandbox?.close();
  await fresh?.drop();
});

describe('a partial run', () => {
  it('fails its job, which the engine retries with back-off; what did sync is kept', async () => {
    // api-notes gives the tax endpoints both 30 and 366 days, so the config allows 366; the
    // sandbox answers like the 30-day copy and refuses the wider windows (00001): that stream
    // fails on every attempt, deposits succeed, so each run is partial (the CLI's exit 3).
    const { file, env, accounts } = writeFirmConfig(sandbox, { sync: { safetyLagSeconds: 0, streams: ['deposits', 'taxSpotRecords'], windowDays: { taxSpotRecords: 366 }, since: new Date(sandbox.world.now() - 731 * 86_400_000).toISOString() } });
    const cliEnv = { ...env, DATABASE_URL: fresh.url };
    expect((await runCli(['enqueue', '--config', file], cliEnv)).code).toBe(0);
    workers = [startWorker(file, cliEnv)];
    const w = workers[0]!;
    // The second attempt's run row too: job-start is logged before the run opens its sync_runs row.
    await waitFor('a second attempt', async () => w.events().some((e) => e.type === 'job-start' && e.attempt === 2)
      && Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM sync_runs`.execute(fresh.db)).rows[0]!.n) >= 2, 60_000);
    const partials = w.events().filter((e) => e.type === 'job-partial');
    expect(partials.length).toBeGreaterThanOrEqual(1);
    expect(partials[0]).toMatchObject({ account: accounts[0]!.name, attempt: 1, failed: 1 });
    // Retried, not failed for good: no permanent failure, the job still queued with its error.
    expect(w.events().some((e) => e.type === 'job-failed')).toBe(false);
    expect((await sql<{ n: string }>`SELECT count(*)::text AS n FROM sync_job_failures`.execute(fresh.db)).rows[0]!.n).toBe('0');
    const [job] = await jobsLeft(fresh.db);
    expect(job!.max_attempts).toBe(8);
    expect(job!.last_error).toMatch(/^partial sync of "client-001".*taxSpotRecords/);
    // The engine's back-off: exp(attempts) seconds after the failure (about 2.7 s after the first).
    const gaps = await sql<{ s: number }>`SELECT extract(epoch FROM (
        (SELECT min(started_at) FROM sync_runs WHERE id > (SELECT min(id) FROM sync_runs)) - (SELECT finished_at FROM sync_runs ORDER BY id LIMIT 1)))::float8 AS s`.execute(fresh.db);
    expect(gaps.rows[0]!.s).toBeGreaterThan(2);
    const deposits = await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits`.execute(fresh.db);
    // What did sync is kept: every deposit the world holds for the account (5 generated, plus the
    // opening deposit of each coin it opens with).
    const { rows: [synced] } = await sql<{ uid: string }>`SELECT DISTINCT account_uid AS uid FROM deposits`.execute(fresh.db);
    const held = (sandbox.world as unknown as { book: { get(uid: string, r: string, p: string): { size: number } } }).book.get(synced!.uid, 'deposits', 'all').size;
    expect(held).toBeGreaterThanOrEqual(5);
    expect(deposits.rows[0]!.n).toBe(String(held));
    // The second attempt back in the queue (its run row is written before the engine takes the job
    // back, so status could still see it running); the third waits exp(2) ≈ 7.4 s.
    await waitFor('the second attempt back in the queue', async () => (await jobsLeft(fresh.db)).some((j) => j.attempts >= 2 && j.locked_by === null), 60_000);
    const status = await runCli(['status'], cliEnv);
    expect(status.stdout).toMatch(/client-001 +queued 1 {2}running 0 {2}failed 0 {2}next .*\n +retrying after: partial sync/);
  }, 90_000);
});
