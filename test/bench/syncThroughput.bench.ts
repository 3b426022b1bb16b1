// Benchmark 2 (issue 3, Performance, "Throughput"): one large account, rate limits off on both
// sides, a full first sync into PostgreSQL end to end; records/s and the sync process's peak
// RSS. Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/syncThroughput.bench.ts                     # 200k, then 1M records
//   BENCH_RECORDS=200000 npx tsx test/bench/syncThroughput.bench.ts
//   BENCH_SYNC='{"parallelWindows":1}' ...   merged into the config file's "sync" section
//   BENCH_NODE_ARGS='--max-semi-space-size=64' ...   extra node flags for the sync process
//   BENCH_ALL_ACCOUNTS=1 ...   sync every sandbox account (each sized for N) instead of main only
//   BENCH_KEEP_DB=1 ...   keep the synced database and print its URL (drop it by hand)
//   BENCH_NOW=1795000000000 ...   the sandbox's history ends at this Unix ms (compare two runs' tables)
//   BENCH_NIGHTLY=1 ...   also run benchmark 3 (see syncNightly.bench.ts) on the synced database;
//                         the first sync then stops one day short (safety lag one day + 120 s)
//
// The account is the sandbox's main account (`--account main`), sized by accountScale() so that
// about BENCH_RECORDS records are readable through the endpoints. The sandbox runs in this
// process, the sync as a child process (`tradeledger sync`, default settings, client rate limit
// off) under /usr/bin/time -v for its peak RSS; PostgreSQL is the 5432 service. All three share
// the machine's cores. Records/s = records the sync loaded / process wall time.
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { builtIsCurrent } from '../../bin/builtIsCurrent.js';
import { accountScale } from './support/accountScale.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { runSyncProcess, summaryTotals } from './support/runSyncProcess.js';
import { sandboxStats } from './support/sandboxStats.js';
import { sandboxSyncConfig } from './support/sandboxSyncConfig.js';
import { scratchDatabase } from './support/scratchDatabase.js';
import { watchProcessCpu } from './support/watchProcessCpu.js';
import { nightlyRun, oneDayBehindSeconds } from './support/nightlyRun.js';

const sizes = (process.env.BENCH_RECORDS ?? '200000,1000000').split(',').map(Number);
const nightly = process.env.BENCH_NIGHTLY === '1';
// BENCH_ALL_ACCOUNTS=1: every sandbox account (main, 3 subs, demo, copy-trader), each sized for N.
const allAccounts = process.env.BENCH_ALL_ACCOUNTS === '1';
const syncSettings = JSON.parse(process.env.BENCH_SYNC ?? '{}') as Record<string, unknown>;
// BENCH_NOW=<Unix ms>: the sandbox's history ends there instead of at the run's start, so two runs
// (old and new code) read the same records and their tables can be compared row for row.
const anchor = process.env.BENCH_NOW === undefined ? undefined : Number(process.env.BENCH_NOW);

console.log(machineInfo());
// The CLI runs dist/ only while it is newer than src/ (bin/builtIsCurrent.js); otherwise the sources under tsx,
// which costs the sync ~40-60 MB of peak RSS. Say which one these figures are of (`npm run build` to refresh dist/).
const compiled = process.env.TRADELEDGER_FROM_SOURCE !== '1' && builtIsCurrent(fileURLToPath(new URL('../..', import.meta.url)));
console.log(`- the sync runs from: ${compiled ? 'dist/ (compiled, current)' : 'src/ through tsx (dist/ missing or older than src/, or TRADELEDGER_FROM_SOURCE=1)'}`);
console.log(`- sandbox: seed 1, rate limits off, scale accountScale(N) (see support/accountScale.ts); sync: ${allAccounts ? 'all accounts' : '\`--account main\`'}, ${process.env.BENCH_SYNC ? `settings ${process.env.BENCH_SYNC}` : 'default settings'}, client.rateLimit false\n`);
const rows: (string | number)[][] = [];
for (const n of sizes) {
  const sandbox = await startSandbox({ port: 0, seed: 1, scale: accountScale(n), rateLimit: false, ...(anchor === undefined ? {} : { now: anchor }) });
  const scratch = await scratchDatabase('throughput');
  try {
    const { file, env, accounts } = sandboxSyncConfig(sandbox, { ...syncSettings, ...(nightly ? { safetyLagSeconds: oneDayBehindSeconds } : {}) },
      // An anchored sandbox's clock runs behind this machine's by the time since the anchor.
      { rateLimit: false, ...(anchor === undefined ? {} : { maxClockSkewSeconds: 86_400 }) });
    const s0 = await sandboxStats(sandbox.baseUrl);
    const cpu0 = process.cpuUsage();
    const dbName = new URL(scratch.url).pathname.slice(1);
    const pgCpu = watchProcessCpu((cmd) => cmd.startsWith('postgres:') && cmd.includes(dbName));
    const run = await runSyncProcess(['--config', file, ...(allAccounts ? [] : ['--account', 'main'])], { ...env, DATABASE_URL: scratch.url },
      // BENCH_CPU_PROF=DIR writes a V8 CPU profile of the sync process there (open it in Chrome DevTools).
      [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])]);
    const cpu = process.cpuUsage(cpu0);
    const pgCpuS = pgCpu.stop();
    // BENCH_PG_PIDS=1 prints the PostgreSQL backends' process ids, e.g. for `perf report --pid`.
    if (process.env.BENCH_PG_PIDS === '1') console.log(`PostgreSQL backend pids: ${pgCpu.pids().join(',')} (sandbox: ${process.pid})`);
    const s1 = await sandboxStats(sandbox.baseUrl);
    if (run.code !== 0) console.log(`sync exited ${run.code}; failed partitions:\n${run.failures.join('\n') || run.stderrTail.slice(-3000)}`);
    const { records, history, candles } = summaryTotals(run.summary);
    const wallS = run.wallMs / 1000;
    const spanS = (run.syncMs ?? NaN) / 1000;
    // Per history record: the CPU the sync and PostgreSQL spend on everything (candles included)
    // over the account's own records, the figure issue 24 halves.
    const perHistory = (cpuS: number) => Number(((cpuS * 1e6) / history).toFixed(1));
    rows.push([n, records, history, candles, s1.total - s0.total, Number(wallS.toFixed(1)), Math.round(records / wallS), Math.round(history / spanS), Math.round(candles / spanS),
      Math.round(run.peakRssMb ?? NaN), Number((run.cpuS ?? NaN).toFixed(1)), perHistory(run.cpuS ?? NaN), Number(((cpu.user + cpu.system) / 1e6).toFixed(1)), Number(pgCpuS.toFixed(1)), perHistory(pgCpuS), run.summary?.status ?? `exit ${run.code}`]);
    console.log(markdownTable(['target N', 'records loaded', 'history records', 'candles', 'requests', 'wall s', 'records/s (wall)', 'history records/s (sync span)', 'candles/s (sync span)', 'peak RSS MB', 'sync CPU s', 'sync µs / history record', 'sandbox CPU s', 'PostgreSQL CPU s', 'PostgreSQL µs / history record', 'status'], rows.slice(-1)));
    console.log(`\nsync process CPU: ${(run.cpuS ?? NaN).toFixed(1)} s, of which in the kernel ${(run.systemS ?? NaN).toFixed(1)} s`);
    // The partitions that ran longest: a partition pages one request after another, so the
    // largest ones bound the run's tail.
    const finished = [...run.partitions].filter(([, p]) => p.doneS !== undefined);
    const longest = finished.sort((a, b) => (b[1].doneS! - b[1].startS) - (a[1].doneS! - a[1].startS)).slice(0, 6);
    // ... and the one that ended last (the prices stream, which starts when the history is in).
    const last = [...finished].sort((a, b) => b[1].doneS! - a[1].doneS!)[0];
    if (last !== undefined && !longest.includes(last)) longest.push(last);
    console.log(`\n${markdownTable(['partition', 'records', 'pages', 'started s', 'done s'], longest.map(([k, p]) => {
      const c = run.summary?.counts[k];
      return [k, c ? c.inserted + c.updated + c.unchanged : 0, c?.pages ?? 0, Number(p.startS.toFixed(1)), Number(p.doneS!.toFixed(1))];
    }))}\n`);
    if (nightly) {
      const main = accounts.filter((a) => a.name === 'main');
      console.log(await nightlyRun({ sandbox, file, env, databaseUrl: scratch.url, accounts: main, args: ['--account', 'main'] }));
    }
  } finally {
    // BENCH_KEEP_DB=1 keeps the synced database (e.g. to EXPLAIN a query on it); drop it by hand.
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept the database: ${scratch.url}`);
    else await scratch.drop();
    await sandbox.close();
  }
}
console.log('\n### throughput (targets: >= 20,000 records/s, peak RSS < 500 MB)\n');
console.log(markdownTable(['target N', 'records loaded', 'history records', 'candles', 'requests', 'wall s', 'records/s (wall)', 'history records/s (sync span)', 'candles/s (sync span)', 'peak RSS MB', 'sync CPU s', 'sync µs / history record', 'sandbox CPU s', 'PostgreSQL CPU s', 'PostgreSQL µs / history record', 'status'], rows));
