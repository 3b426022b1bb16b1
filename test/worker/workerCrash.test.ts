import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runCli } from '../support/runCli.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { jobsLeft, overlappingRuns, startWorker, stopWorkers, waitFor } from '../support/workerProcesses.js';
import type { WorkerProcess } from '../support/workerProcesses.js';

// Four client accounts with enough deposits that one sync takes a few seconds at the real rate
// limits (40 pages at 10 requests/s), so a worker can be killed in the middle of one.
let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=4000,transfers=300', accounts: 4, rateLimit: true });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await stopWorkers(workers);
  await sandbox?.close();
  await fresh?.drop();
});

describe('kill -9 of a worker in the middle of a job', () => {
  it('frees the job for another worker once its heartbeat is stale, which resumes it: the ground truth, nothing doubled', async () => {
    const { file, env, accounts } = writeFirmConfig(sandbox, {
      sync: { safetyLagSeconds: 0, streams: ['deposits', 'transfers'], since: new Date(sandbox.world.now() - 731 * 86_400_000).toISOString() },
      client: { safetyFactor: 0.8 },
      // Heartbeat and dead-peer sweep every second, dead after 3 s of silence (production: 10 s, 15 s, 60 s).
      worker: { sweepSeconds: 1, heartbeatSeconds: 1, staleSeconds: 3 },
    });
    const cliEnv = { ...env, DATABASE_URL: fresh.url };
    const queued = await runCli(['enqueue', '--config', file], cliEnv);
    expect(queued.code, queued.stderr).toBe(0);
    workers = [startWorker(file, cliEnv, 1), startWorker(file, cliEnv, 1)];

    // Wait until a job is locked and its account already has committed pages, then kill -9 its worker.
    let victim: { uid: string; pool: string; worker: WorkerProcess } | undefined;
    await waitFor('a job half done', async () => {
      const { rows } = await sql<{ uid: string; pool_id: string; pid: number; n: string }>`
        SELECT substr(j.queue_name, length('tradeledger:account:') + 1) AS uid, w.pool_id, w.pid,
               (SELECT count(*) FROM deposits d WHERE d.account_uid = substr(j.queue_name, length('tradeledger:account:') + 1))::text AS n
        FROM graphile_worker.jobs j JOIN sync_workers w ON w.pool_id = j.locked_by`.execute(fresh.db);
      const half = rows.find((r) => Number(r.n) >= 200 && Number(r.n) < 3600);
      const worker = half && workers.find((w) => w.child.pid === half.pid);
      if (half && worker) victim = { uid: half.uid, pool: half.pool_id, worker };
      return victim !== undefined;
    }, 60_000);
    victim!.worker.child.kill('SIGKILL');
    const killed = await victim!.worker.done;
    expect(killed.signal).toBe('SIGKILL');
    const survivor = workers.find((w) => w !== victim!.worker)!;

    await waitFor('every job to finish', async () => (await jobsLeft(fresh.db)).length === 0, 90_000);

    // The survivor freed the dead worker's job and ran it: a second attempt, not a 4-hour wait.
    const events = survivor.events();
    expect(events.filter((e) => e.type === 'dead-workers-freed').flatMap((e) => e.pools as string[])).toContain(victim!.pool);
    const retaken = events.find((e) => e.type === 'job-start' && e.uid === victim!.uid);
    expect(retaken, 'the survivor took the killed job').toBeDefined();
    expect(retaken!.attempt).toBe(2);

    // Equal to the ground truth for every account; the killed account's rows are exactly its records.
    const { differences, compared } = await diffAgainstTruth(sandbox, fresh.db, accounts.map((a) => a.uid), ['deposits', 'transfers']);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(4 * 4000);
    const count = await sql<{ n: string; ids: string }>`SELECT count(*)::text AS n, count(DISTINCT order_id)::text AS ids FROM deposits WHERE account_uid = ${victim!.uid}`.execute(fresh.db);
    // 4,000 generated deposits plus the opening deposit of each coin the world opens the account with.
    const held = String((sandbox.world as unknown as { book: { get(uid: string, r: string, p: string): { size: number } } }).book.get(victim!.uid, 'deposits', 'all').size);
    expect(Number(held)).toBeGreaterThanOrEqual(4000);
    expect(count.rows[0]).toEqual({ n: held, ids: held });

    // The killed run is marked interrupted once its lock holder is gone; one complete run follows it.
    const runs = await sql<{ status: string }>`SELECT status FROM sync_runs WHERE account_uids @> ARRAY[${victim!.uid}]::text[] ORDER BY id`.execute(fresh.db);
    expect(runs.rows.map((r) => r.status)).toEqual(['interrupted', 'ok']);
    expect((await overlappingRuns(fresh.db)).overlaps).toEqual([]);
    expect(sandbox.stats.total429, JSON.stringify(sandbox.stats.rateLimited)).toBe(0);
  }, 180_000);
});

describe('SIGTERM of a worker in the middle of a job', () => {
  it('hands the job back without spending an attempt, logged at info, and exits 0; the next worker finishes it to the ground truth', async () => {
    const db2 = await freshDatabase();
    try {
      const { file, env, accounts } = writeFirmConfig(sandbox, {
        sync: { safetyLagSeconds: 0, streams: ['deposits'], since: new Date(sandbox.world.now() - 731 * 86_400_000).toISOString() },
        client: { safetyFactor: 0.8 },
        // A second of grace: the 3,800 or more deposits left need at least 3.8 s, so the job is
        // handed back rather than finished (production: 10 s).
        worker: { stopGraceSeconds: 1 },
      });
      const cliEnv = { ...env, DATABASE_URL: db2.url };
      const one = accounts[0]!;
      expect((await runCli(['enqueue', '--config', file, '--account', one.name], cliEnv)).code).toBe(0);
      const first = startWorker(file, cliEnv, 1);
      await waitFor('a job half done', async () => {
        const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = ${one.uid}`.execute(db2.db);
        return Number(rows[0]!.n) >= 200;
      }, 60_000);
      first.child.kill('SIGTERM');
      const stopped = await first.done;
      expect(stopped.code, stopped.stderr.slice(-500)).toBe(0);
      expect(first.events().some((e) => e.type === 'worker-stop')).toBe(true);
      const [job] = await jobsLeft(db2.db);
      expect(job, 'the job is still queued').toBeDefined();
      expect(job!.locked_by).toBeNull();
      expect(job!.last_error).toMatch(/shutting down/);
      // A deploy costs the job no attempt (it was taken once: attempt 1 of 8, given back).
      expect(job!.attempts, 'the attempt is given back').toBe(0);
      // Logged once at info; no job-error, no engine error line (alerts watch those).
      const logged = first.events();
      const handedBack = logged.filter((e) => e.type === 'job-handed-back');
      expect(handedBack).toEqual([expect.objectContaining({ level: 'info', account: one.name, uid: one.uid })]);
      expect(logged.filter((e) => e.type === 'job-error' || e.level === 'error' || e.level === 'warning')).toEqual([]);
      // The stopped run released its lock and says so: failed (SYNC_STOPPED), resumed by the next worker.
      const stoppedRun = await sql<{ status: string; codes: string[] }>`SELECT status, ARRAY(SELECT jsonb_array_elements(errors)->>'code') AS codes FROM sync_runs ORDER BY id`.execute(db2.db);
      expect(stoppedRun.rows).toEqual([{ status: 'failed', codes: expect.arrayContaining(['SYNC_STOPPED']) }]);
      const left = Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = ${one.uid}`.execute(db2.db)).rows[0]!.n);
      expect(left, 'stopped before the end').toBeLessThan(4000);

      const second = startWorker(file, cliEnv, 1);
      workers.push(second);
      await waitFor('the job to finish', async () => (await jobsLeft(db2.db)).length === 0, 90_000);
      const { differences } = await diffAgainstTruth(sandbox, db2.db, [one.uid], ['deposits']);
      expect(differences.filter((d) => d.startsWith('deposits ')).slice(0, 10)).toEqual([]);
      await stopWorkers([second]);
    } finally {
      await db2.drop();
    }
  }, 180_000);
});
