// Benchmark (issue 15, Performance): a firm of 200 sandbox client accounts synced by 1, 2 and 4
// `tradeledger worker` processes against the sandbox's REAL per-UID rate limits. Run by hand;
// results go to BENCHMARKS.md:
//
//   npx tsx test/bench/workers.bench.ts
//   BENCH_ACCOUNTS=200 BENCH_WORKERS=1,2,4 BENCH_CONCURRENCY=2 npx tsx test/bench/workers.bench.ts
//   BENCH_SCALE=... BENCH_STREAMS=...     per-account data (scalePlan syntax) and the streams synced
//
// Sizing: every account holds a small wallet-and-fills history (scale below) and the sync reads
// four streams whose endpoints run at 10-20 requests/s, so one account's first sync needs about
// a second at the rate limits, and 200 accounts take minutes rather than the hours a full
// history of every stream would (the 1 request/s tax endpoints need 25 windows per account).
// The per-account figures (job time over the account's own rate-limit minimum) carry over to
// bigger histories; docs/scaling.md scales them up.
//
// Per account, the minimum is the largest (UID, endpoint) budget's least request count over its
// rate (support/minimumRequests.ts); its job time comes from its sync_runs row. The firm's
// minimum with S job slots (workers x concurrency) is sum(account minima) / S, since accounts
// never share a budget. 429s come from the sandbox's own counters.
import { sql } from 'kysely';
import { DAY_MS } from '../../src/api/endpoints.js';
import { createDb } from '../../src/db/createDb.js';
import { configDefaults } from '../../src/cli/config/syncConfig.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { runCli } from '../support/runCli.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { startWorker, stopWorkers } from '../support/workerProcesses.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { minimumRequests } from './support/minimumRequests.js';
import { watchProcessCpu } from './support/watchProcessCpu.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const accountsN = Number(process.env.BENCH_ACCOUNTS ?? 200);
const workerCounts = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);
const scale = process.env.BENCH_SCALE ?? 'deposits=40,withdrawals=20,transfers=60,spotFills=300';
const streams = (process.env.BENCH_STREAMS ?? 'deposits,withdrawals,transfers,spotFills').split(',');

console.log(machineInfo());
console.log(`- sandbox: seed 1, ${accountsN} client accounts, scale ${scale}, real rate limits; workers: concurrency ${concurrency} each, default client settings (safety factor ${configDefaults.safetyFactor}); streams ${streams.join(',')}\n`);

const sandbox = await startSandbox({ port: 0, seed: 1, scale, accounts: accountsN, rateLimit: true });
const summary: (string | number)[][] = [];
const slotsOf = (workersN: number) => workersN * concurrency;
try {
  const { file, env, accounts } = writeFirmConfig(sandbox, { sync: { streams } });
  const now = Math.min(Date.now(), sandbox.world.now());
  const timing = {
    now, safetyLagMs: configDefaults.safetyLagSeconds * 1000, since: undefined, historyDays: configDefaults.historyDays,
    horizonMarginMs: configDefaults.horizonMarginSeconds * 1000, lookbackDays: configDefaults.lookbackDays,
  };
  const minOf = new Map(accounts.map((a) => {
    const budgets = minimumRequests(sandbox.world, { accounts: [{ uid: a.uid, kind: 'main' }], streams, lookback: true, timing });
    return [a.uid, Math.max(...budgets.map((b) => b.seconds))];
  }));
  const firmMinimum = [...minOf.values()].reduce((s, x) => s + x, 0);
  for (const workersN of workerCounts) {
    const scratch = await scratchDatabase(`workers${workersN}`);
    const db = createDb(scratch.url, { name: 'bench', maxConnections: 2 });
    const cliEnv = { ...env, DATABASE_URL: scratch.url };
    const before429 = sandbox.stats.total429;
    const beforeRequests = sandbox.stats.total;
    try {
      const workers = Array.from({ length: workersN }, () => startWorker(file, cliEnv, concurrency));
      while (workers.some((w) => !w.events().some((e) => e.type === 'worker-start'))) await new Promise((r) => setTimeout(r, 100));
      // CPU-seconds so far of this run's worker processes (their command line names the config file).
      const cpuNow = () => watchProcessCpu((cmd) => cmd.includes(` worker --config ${file}`)).stop();
      const cpu0 = cpuNow();
      const t0 = Date.now();
      const q = await runCli(['enqueue', '--config', file], cliEnv);
      if (q.code !== 0) throw new Error(`enqueue failed: ${q.stderr}`);
      for (;;) {
        const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM graphile_worker.jobs`.execute(db);
        if (rows[0]!.n === '0') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const wallS = (Date.now() - t0) / 1000;
      const firstCpuS = cpuNow() - cpu0;
      // The first sync's runs, before any nightly rerun adds its own.
      const runs = (await sql<{ uid: string; s: number; status: string }>`
        SELECT u AS uid, extract(epoch FROM finished_at - started_at)::float8 AS s, status FROM sync_runs, unnest(account_uids) u`.execute(db)).rows;
      // The night after: every account enqueued again on the synced database. Each job now reads
      // only the 7-day look-back, so its time is the per-job cost a nightly run pays.
      let nightly = '';
      if (process.env.BENCH_NIGHTLY !== '0' && workersN === workerCounts[workerCounts.length - 1]) {
        const lastRun = (await sql<{ id: string }>`SELECT coalesce(max(id), 0)::text AS id FROM sync_runs`.execute(db)).rows[0]!.id;
        const nightCpu0 = cpuNow();
        const n0 = Date.now();
        const again = await runCli(['enqueue', '--config', file], cliEnv);
        if (again.code !== 0) throw new Error(`enqueue failed: ${again.stderr}`);
        for (;;) {
          const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM graphile_worker.jobs`.execute(db);
          if (rows[0]!.n === '0') break;
          await new Promise((r) => setTimeout(r, 250));
        }
        const nightS = (Date.now() - n0) / 1000;
        const nightCpuS = cpuNow() - nightCpu0;
        const jobs = (await sql<{ s: number }>`SELECT extract(epoch FROM finished_at - started_at)::float8 AS s FROM sync_runs WHERE id > ${lastRun}::bigint AND status = 'ok' ORDER BY 1`.execute(db)).rows.map((r) => r.s);
        nightly = `nightly rerun of ${jobs.length} accounts: wall ${nightS.toFixed(1)} s = ${(nightS / jobs.length * slotsOf(workersN)).toFixed(2)} s per account per job slot; worker CPU ${(nightCpuS / jobs.length * 1000).toFixed(0)} ms per account (${nightCpuS.toFixed(1)} CPU-s in all); sync run per account median ${jobs[Math.floor(jobs.length / 2)]!.toFixed(2)} s, max ${jobs[jobs.length - 1]!.toFixed(2)} s`;
      }
      await stopWorkers(workers);
      const ok = runs.filter((r) => r.status === 'ok');
      const ratios = ok.map((r) => ({ uid: r.uid, s: r.s, min: minOf.get(r.uid)!, ratio: r.s / minOf.get(r.uid)! })).sort((a, b) => b.ratio - a.ratio);
      const slowest = [...ratios].sort((a, b) => b.s - a.s)[0]!;
      const median = ratios[Math.floor(ratios.length / 2)]!;
      const slots = workersN * concurrency;
      const firmMinS = firmMinimum / slots;
      const failed = workers.flatMap((w) => w.events()).filter((e) => e.type === 'job-failed' || e.type === 'job-partial').length;
      console.log(`### ${workersN} worker(s) x concurrency ${concurrency}: ${ok.length} of ${accounts.length} accounts ok, ${failed} failed attempts, wall ${wallS.toFixed(1)} s, ${sandbox.stats.total - beforeRequests} requests, ${sandbox.stats.total429 - before429} 429s, worker CPU ${firstCpuS.toFixed(1)} s (${(firstCpuS / ok.length * 1000).toFixed(0)} ms per account, start-up excluded)\n`);
      if (nightly) console.log(`${nightly}\n`);
      console.log(markdownTable(['account (worst ratio first)', 'job s', 'min s', 'ratio'], ratios.slice(0, 3).map((r) => [r.uid, Number(r.s.toFixed(2)), Number(r.min.toFixed(2)), Number(r.ratio.toFixed(2))])));
      console.log('');
      summary.push([workersN, slots, Number(wallS.toFixed(1)), Number(firmMinS.toFixed(1)), Number((wallS / firmMinS).toFixed(2)),
        `${Number(slowest.s.toFixed(2))} / ${Number(slowest.min.toFixed(2))} = ${Number((slowest.s / slowest.min).toFixed(2))}`,
        Number(median.ratio.toFixed(2)), Number(ratios[0]!.ratio.toFixed(2)), sandbox.stats.total429 - before429]);
    } finally {
      await db.destroy();
      await scratch.drop();
    }
  }
} finally {
  await sandbox.close();
}
console.log(`### summary: ${accountsN} accounts\n`);
console.log(markdownTable(['workers', 'job slots', 'wall s', 'firm minimum s', 'wall / minimum', 'slowest account: job s / min s', 'median account ratio', 'worst account ratio', '429s'], summary));
