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

// A firm of 25 client accounts with small histories (three fast wallet streams), the real
// per-UID rate limits, and three worker processes with one job each at a time.
const streams = ['deposits', 'withdrawals', 'transfers'];
let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=12,withdrawals=6,transfers=12', accounts: 25, rateLimit: true });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await stopWorkers(workers);
  await sandbox?.close();
  await fresh?.drop();
});

describe('sync jobs on three worker processes', () => {
  it('syncs every account once, never two runs of one account at a time, with zero 429s; a wrong key fails its job once', async () => {
    const broken = 'client-007';
    const { file, env, accounts } = writeFirmConfig(sandbox, {
      sync: { safetyLagSeconds: 0, streams, since: new Date(sandbox.world.now() - 731 * 86_400_000).toISOString() },
      client: { safetyFactor: 0.8 },
      worker: { sweepSeconds: 1, heartbeatSeconds: 1 },
    }, [broken]);
    expect(accounts.length).toBe(25);
    const cliEnv = { ...env, DATABASE_URL: fresh.url };

    // Enqueued twice before any worker runs: the second enqueue finds every job pending and adds nothing.
    const first = await runCli(['enqueue', '--config', file, '--json'], cliEnv);
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['enqueue', '--config', file, '--json'], cliEnv);
    expect(second.code, second.stderr).toBe(0);
    const ids = (r: typeof first) => (JSON.parse(r.stdout) as { jobs: { jobId: string }[] }).jobs.map((j) => j.jobId);
    expect(ids(second)).toEqual(ids(first));
    const already = (r: typeof first) => (JSON.parse(r.stdout) as { jobs: { alreadyQueued: boolean }[] }).jobs.map((j) => j.alreadyQueued);
    expect(new Set(already(first))).toEqual(new Set([false]));
    expect(new Set(already(second))).toEqual(new Set([true]));
    const third = await runCli(['enqueue', '--config', file, '--account', 'client-001'], cliEnv);
    expect(third.stdout).toMatch(/^already queued client-001 \(\d+\)( streams [a-z,]+)?: job \d+ \(still pending: not doubled\)\n$/);
    const pending = await jobsLeft(fresh.db);
    expect(pending.length).toBe(25);
    expect(new Set(pending.map((j) => j.queue_name)).size, 'one queue per account UID').toBe(25);

    const queued = await runCli(['status'], cliEnv);
    expect(queued.stdout).toMatch(/sync jobs \(tradeledger worker\):/);
    expect(queued.stdout.match(/queued 1 {2}running 0 {2}failed 0/g)?.length).toBe(25);
    expect(queued.stdout).toMatch(/client-001 +queued 1 {2}running 0 {2}failed 0/);

    workers = [0, 1, 2].map(() => startWorker(file, cliEnv, 1));
    // The sessions the workers open, seen while they run (an idle pooled session stays 10 s).
    const sessions = new Map<string, number>();
    await waitFor('every job to finish', async () => {
      const seen = await sql<{ app: string; n: number }>`SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'tradeledger-worker-sync%' GROUP BY 1`.execute(fresh.db);
      for (const r of seen.rows) sessions.set(r.app, Math.max(sessions.get(r.app) ?? 0, r.n));
      return (await jobsLeft(fresh.db)).length === 0;
    });
    // The rate reservations went over their own pool (as \`tradeledger sync\`'s do), within its
    // budget of 3 per worker process.
    expect(sessions.get('tradeledger-worker-sync-rates'), JSON.stringify([...sessions])).toBeGreaterThan(0);
    expect(sessions.get('tradeledger-worker-sync-rates')).toBeLessThanOrEqual(3 * 3);

    // Every good account equals the sandbox's ground truth; the broken one holds nothing.
    const good = accounts.filter((a) => a.name !== broken).map((a) => a.uid);
    const { differences, compared } = await diffAgainstTruth(sandbox, fresh.db, good, streams);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(24 * 20);
    const brokenUid = accounts.find((a) => a.name === broken)!.uid;
    const brokenRows = await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = ${brokenUid}`.execute(fresh.db);
    expect(brokenRows.rows[0]!.n).toBe('0');

    // One complete run per good account, and no two runs of one account overlapping in time.
    const runs = await sql<{ uid: string; status: string }>`SELECT u.uid, r.status FROM sync_runs r, unnest(r.account_uids) u(uid)`.execute(fresh.db);
    expect(runs.rows.filter((r) => r.status === 'ok').map((r) => r.uid).sort()).toEqual([...good].sort());
    const { overlaps } = await overlappingRuns(fresh.db);
    expect(overlaps).toEqual([]);

    // The work was spread: every worker process synced some accounts.
    const doneBy = workers.map((w) => w.events().filter((e) => e.type === 'job-done').length);
    expect(doneBy.reduce((a, b) => a + b, 0)).toBe(24);
    for (const n of doneBy) expect(n).toBeGreaterThan(0);

    // Zero 429 answers at the real per-UID limits.
    expect(sandbox.stats.total429, JSON.stringify(sandbox.stats.rateLimited)).toBe(0);
    // The clock is read once per worker process (3 samples of the public X10), not per job:
    // the exchange limits that endpoint per IP, which every worker on a machine shares.
    const clockReads = Object.values(sandbox.stats.requests['X10'] ?? {}).reduce((a, b) => a + b, 0);
    expect(clockReads).toBeGreaterThan(0);
    expect(clockReads).toBeLessThanOrEqual(3 * 3);

    // The wrong key failed its job exactly once, for good, with the exchange's reason and the fix.
    const failures = await sql<{ account_uid: string; code: string; message: string }>`SELECT account_uid, code, message FROM sync_job_failures`.execute(fresh.db);
    expect(failures.rows.length).toBe(1);
    expect(failures.rows[0]!.account_uid).toBe(brokenUid);
    expect(failures.rows[0]!.message).toMatch(/client-007.*passphrase/i);
    const failedLines = workers.flatMap((w) => w.events()).filter((e) => e.type === 'job-failed');
    expect(failedLines.length).toBe(1);
    expect(failedLines[0]).toMatchObject({ account: broken, permanent: true });
    const starts = workers.flatMap((w) => w.events()).filter((e) => e.type === 'job-start' && e.account === broken);
    expect(starts.length, 'not retried').toBe(1);

    const status = await runCli(['status'], cliEnv);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/client-007 +queued 0 {2}running 0 {2}failed 1\n +failed for good \(not retried\): .*passphrase/i);
    expect(status.stdout).not.toMatch(/client-001 +queued/);

    // Secrets never reach a log line or the database's failure record.
    const logs = workers.map((w) => JSON.stringify(w.events())).join('\n');
    for (const [k, v] of Object.entries(env)) {
      if (k.endsWith('_KEY')) continue;
      expect(logs.includes(v), `secret ${k} in a worker log`).toBe(false);
      expect(JSON.stringify(failures.rows).includes(v)).toBe(false);
    }

    const results = await stopWorkers(workers);
    for (const r of results) expect(r.code, r.stderr.slice(-500)).toBe(0);
    const registered = await sql<{ n: string }>`SELECT count(*)::text AS n FROM sync_workers`.execute(fresh.db);
    expect(registered.rows[0]!.n, 'a stopped worker removes its registration').toBe('0');
  }, 240_000);
});
