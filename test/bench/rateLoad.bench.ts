// Benchmark (issue 23 item 2, "Zero 429 by design"): 429s per run on a loaded machine. CPU hogs
// (`node -e 'for(;;){}'`) run beside a first sync and beside a 3-worker run, against the
// sandbox's REAL rate limits; the sandbox counts every request and every 429 it answers. Run by
// hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/rateLoad.bench.ts                    # 12 hogs, first sync then 3 workers
//   BENCH_HOGS=14 BENCH_RUNS=first,workers BENCH_REPEAT=2 npx tsx test/bench/rateLoad.bench.ts
//   BENCH_ACCOUNTS=18 BENCH_WORKERS=3 BENCH_CONCURRENCY=2 ...  the worker run's firm
//   BENCH_WARMUP_S=60 ...                                   seconds the hogs run before the first run
//
// The load average is sampled every 5 s during each run (the machine is shared: other work adds
// to it) and printed as min / median / max beside the 429 count. The first sync is
// `tradeledger sync` over every account and stream of the sandbox at scale small (its floor is
// E5 at 1 request/s: 50 requests); the worker run is `tradeledger worker` x3 over a firm of
// client accounts whose streams include the 1 request/s tax endpoints and the public candles.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { createDb } from '../../src/db/createDb.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { runCli } from '../support/runCli.js';
import { startWorker, stopWorkers } from '../support/workerProcesses.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { runSyncProcess } from './support/runSyncProcess.js';
import { sandboxStats, type StatsSnapshot } from './support/sandboxStats.js';
import { sandboxSyncConfig } from './support/sandboxSyncConfig.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const hogsN = Number(process.env.BENCH_HOGS ?? 12);
const runs = (process.env.BENCH_RUNS ?? 'first,workers').split(',');
const repeat = Number(process.env.BENCH_REPEAT ?? 1);
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 60);
const accountsN = Number(process.env.BENCH_ACCOUNTS ?? 18);
const workersN = Number(process.env.BENCH_WORKERS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);
const firmStreams = (process.env.BENCH_STREAMS ?? 'deposits,transfers,spotFills,marginRecords,taxSpotRecords,taxFutureRecords,prices').split(',');
const firmScale = process.env.BENCH_SCALE ?? 'deposits=40,withdrawals=20,transfers=60,spotFills=300';

const hogs: ChildProcess[] = [];
const stopHogs = () => {
  for (const h of hogs) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { stopHogs(); process.exit(130); });

/** Samples the 1-minute load average every 5 s until stopped. */
function sampleLoad(): () => { min: number; median: number; max: number; samples: number } {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), 5000);
  return () => {
    clearInterval(timer);
    samples.push(loadavg()[0]!);
    const sorted = [...samples].sort((a, b) => a - b);
    return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]!, samples: sorted.length };
  };
}

/** 429s between two snapshots, per endpoint id (all UIDs and addresses together). */
function limitedByEndpoint(before: StatsSnapshot, after: StatsSnapshot): string {
  const parts: string[] = [];
  for (const [endpoint, byUid] of Object.entries(after.rateLimited)) {
    const n = Object.entries(byUid).reduce((s, [uid, x]) => s + x - (before.rateLimited[endpoint]?.[uid] ?? 0), 0);
    if (n > 0) parts.push(`${endpoint} ${n}`);
  }
  return parts.join(', ') || '-';
}

/** Requests to the public endpoints (limited per IP: X9-X12, E2) between two snapshots. */
function publicRequests(before: StatsSnapshot, after: StatsSnapshot): number {
  let n = 0;
  for (const endpoint of ['X9', 'X10', 'X11', 'X12', 'E2']) {
    for (const [uid, x] of Object.entries(after.requests[endpoint] ?? {})) n += x - (before.requests[endpoint]?.[uid] ?? 0);
  }
  return n;
}

const fmt = (l: { min: number; median: number; max: number }) => `${l.min.toFixed(1)} / ${l.median.toFixed(1)} / ${l.max.toFixed(1)}`;
const rows: (string | number)[][] = [];

console.log(machineInfo());
console.log(`- CPU hogs: ${hogsN} x \`node -e 'for(;;){}'\`, started ${warmupS} s before the first run; runs: ${runs.join(', ')} x ${repeat}`);
console.log(`- first sync: sandbox seed 1, scale small, every account and stream, default settings`);
console.log(`- worker run: ${workersN} workers x concurrency ${concurrency}, ${accountsN} client accounts (scale ${firmScale}), streams ${firmStreams.join(',')}, historyDays 180\n`);

for (let i = 0; i < hogsN; i++) hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
try {
  await new Promise((r) => setTimeout(r, warmupS * 1000));
  console.log(`load average after the warm-up (1/5/15 min): ${loadavg().map((l) => l.toFixed(2)).join(' / ')}\n`);
  for (let round = 1; round <= repeat; round++) {
    if (runs.includes('first')) {
      const sandbox = await startSandbox({ port: 0, seed: 1, scale: 'small', rateLimit: true });
      const scratch = await scratchDatabase('rateload');
      try {
        const { file, env } = sandboxSyncConfig(sandbox);
        const before = await sandboxStats(sandbox.baseUrl);
        const load = sampleLoad();
        const run = await runSyncProcess(['--config', file], { ...env, DATABASE_URL: scratch.url });
        const l = load();
        const after = await sandboxStats(sandbox.baseUrl);
        if (run.code !== 0) console.log(`sync exited ${run.code}:\n${run.failures.join('\n') || run.stderrTail.slice(-2000)}`);
        rows.push([`first sync #${round}`, fmt(l), Number((run.wallMs / 1000).toFixed(1)), after.total - before.total, publicRequests(before, after), after.total429 - before.total429, limitedByEndpoint(before, after), run.summary?.status ?? `exit ${run.code}`]);
        console.log(`first sync #${round}: ${after.total429 - before.total429} x 429 in ${after.total - before.total} requests, ${(run.wallMs / 1000).toFixed(1)} s, load ${fmt(l)}`);
      } finally {
        await scratch.drop();
        await sandbox.close();
      }
    }
    if (runs.includes('workers')) {
      const sandbox = await startSandbox({ port: 0, seed: 1, scale: firmScale, accounts: accountsN, rateLimit: true });
      const scratch = await scratchDatabase('rateloadw');
      const db = createDb(scratch.url, { name: 'bench', maxConnections: 2 });
      try {
        const { file, env } = writeFirmConfig(sandbox, { sync: { streams: firmStreams, historyDays: 180 } });
        const cliEnv = { ...env, DATABASE_URL: scratch.url };
        const workers = Array.from({ length: workersN }, () => startWorker(file, cliEnv, concurrency));
        while (workers.some((w) => !w.events().some((e) => e.type === 'worker-start'))) await new Promise((r) => setTimeout(r, 100));
        const before = await sandboxStats(sandbox.baseUrl);
        const load = sampleLoad();
        const t0 = Date.now();
        const q = await runCli(['enqueue', '--config', file], cliEnv);
        if (q.code !== 0) throw new Error(`enqueue failed: ${q.stderr}`);
        for (;;) {
          const { rows: left } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM graphile_worker.jobs`.execute(db);
          if (left[0]!.n === '0') break;
          await new Promise((r) => setTimeout(r, 500));
        }
        const wallS = (Date.now() - t0) / 1000;
        const l = load();
        const after = await sandboxStats(sandbox.baseUrl);
        await stopWorkers(workers);
        const { rows: status } = await sql<{ status: string; n: string }>`SELECT status, count(*)::text AS n FROM sync_runs GROUP BY 1 ORDER BY 1`.execute(db);
        rows.push([`${workersN} workers #${round}`, fmt(l), Number(wallS.toFixed(1)), after.total - before.total, publicRequests(before, after), after.total429 - before.total429, limitedByEndpoint(before, after), status.map((s) => `${s.n} ${s.status}`).join(', ')]);
        console.log(`${workersN} workers #${round}: ${after.total429 - before.total429} x 429 in ${after.total - before.total} requests, ${wallS.toFixed(1)} s, load ${fmt(l)}`);
      } finally {
        await db.destroy();
        await scratch.drop();
        await sandbox.close();
      }
    }
  }
} finally {
  stopHogs();
}
console.log(`\n### 429s per run beside ${hogsN} CPU hogs\n`);
console.log(markdownTable(['run', 'load average (1 min) min / median / max', 'wall s', 'requests', 'of them public (per IP)', '429s', '429s by endpoint', 'runs'], rows));
