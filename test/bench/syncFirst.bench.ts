// Benchmark 1 (issue 3, Performance, "First sync"): a full first sync of every sandbox account
// against the sandbox's REAL per-UID rate limits, next to the least time those limits allow.
// Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/syncFirst.bench.ts                       # scale small, safety factor 0.95 and 0.9
//   BENCH_SCALE=tiny BENCH_SAFETY=1 npx tsx test/bench/syncFirst.bench.ts
//   BENCH_SYNC='{"concurrency":64}' ...    merged into the config file's "sync" section
//   BENCH_FAULTS='slow=1:150' ...          sandbox faults; slow=1:MS delays every answer (a far exchange)
//   BENCH_SCALE="$(npx tsx -e 'import("./test/bench/support/accountScale.js").then(m => console.log(m.accountScale(200000)))')" ...
//
// The minimum (the true floor): for every (UID, endpoint) budget, the pages its stream partitions
// need (see support/minimumRequests.ts) divided by the endpoint's rate, and the public candle
// budget's least requests divided by its rate; budgets run in parallel, so the floor is the
// largest of them. The sync runs as a child process (`tradeledger sync`), the
// sandbox in this process; 429s come from the sandbox's own counters.
import { DAY_MS, endpoints } from '../../src/api/endpoints.js';
import { candleRequests } from '../../src/extract/candleRequests.js';
import { configDefaults } from '../../src/cli/config/syncConfig.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { minimumRequests } from './support/minimumRequests.js';
import { runSyncProcess, summaryTotals } from './support/runSyncProcess.js';
import { sandboxStats, statsDelta } from './support/sandboxStats.js';
import { sandboxSyncConfig } from './support/sandboxSyncConfig.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const scale = process.env.BENCH_SCALE ?? 'small';
const safetyFactors = (process.env.BENCH_SAFETY ?? '0.95,0.9').split(',').map(Number);
const streams = process.env.BENCH_STREAMS?.split(',');
const syncSettings = JSON.parse(process.env.BENCH_SYNC ?? '{}') as Record<string, unknown>;
const faults = process.env.BENCH_FAULTS;

console.log(machineInfo());
console.log(`- sandbox: seed 1, scale ${scale}, real rate limits; sync: ${process.env.BENCH_SYNC ? `settings ${process.env.BENCH_SYNC}` : 'default settings'}, all accounts${streams ? `, streams ${streams.join(',')}` : ', all streams'}${faults ? `; sandbox faults ${faults}` : ''}\n`);
const summary: (string | number)[][] = [];
for (const safetyFactor of safetyFactors) {
  const sandbox = await startSandbox({ port: 0, seed: 1, scale, rateLimit: true, ...(faults ? { faults } : {}) });
  const scratch = await scratchDatabase('first');
  try {
    const { file, env, accounts } = sandboxSyncConfig(sandbox, syncSettings, { safetyFactor });
    const before = await sandboxStats(sandbox.baseUrl);
    const now = Math.min(Date.now(), sandbox.world.now());
    const run = await runSyncProcess(['--config', file, ...(streams ? ['--streams', streams.join(',')] : [])], { ...env, DATABASE_URL: scratch.url });
    const after = await sandboxStats(sandbox.baseUrl);
    if (run.code !== 0) console.log(`sync exited ${run.code}; failed partitions:\n${run.failures.join('\n') || run.stderrTail.slice(-3000)}`);
    const budgets = minimumRequests(sandbox.world, {
      accounts, ...(streams ? { streams } : {}), lookback: true,
      timing: { now, safetyLagMs: configDefaults.safetyLagSeconds * 1000, since: undefined, historyDays: configDefaults.historyDays, horizonMarginMs: configDefaults.horizonMarginSeconds * 1000, lookbackDays: configDefaults.lookbackDays },
    });
    // The public candle budget (X12, per address) is a budget too: the least candle requests are
    // the ledger's (pair, hour)s grouped into the fewest ranges of 200 candles, the grouping the
    // prices stream uses (src/extract/candleRequests.ts), counted on the synced database.
    const candleHours = await scratch.query<{ symbol: string; hours: string[] }>(`
      SELECT ps.symbol, array_agg((extract(epoch FROM n.hour) * 1000)::bigint::text ORDER BY n.hour) AS hours
      FROM (SELECT DISTINCT coin, date_trunc('hour', ts) AS hour FROM ledger WHERE coin IS NOT NULL AND ts < to_timestamp(${now} / 1000.0)) n
      JOIN price_symbols ps ON ps.coin = n.coin GROUP BY ps.symbol`);
    const candleMin = candleHours.reduce((n, r) => n + candleRequests(r.symbol, r.hours.map(Number), 200).length, 0);
    budgets.push({ uid: 'public (per address)', endpoint: 'marketHistoryCandles', endpointId: 'X12', requests: candleMin, records: 0,
      ratePerSecond: endpoints.marketHistoryCandles.ratePerSecond, seconds: candleMin / endpoints.marketHistoryCandles.ratePerSecond });
    const made = statsDelta(before, after);
    const limited = statsDelta(before, after, 'rateLimited');
    const nameOf = new Map(accounts.map((a) => [a.uid, a.name]));
    budgets.sort((a, b) => b.seconds - a.seconds);
    const minSeconds = budgets[0]?.seconds ?? 0;
    console.log(`### safety factor ${safetyFactor}: the slowest budgets (of ${budgets.length})\n`);
    console.log(markdownTable(['account', 'endpoint', 'rate/s', 'records', 'min requests', 'requests made', '429s', 'min s'],
      budgets.slice(0, 8).map((b) => [nameOf.get(b.uid) ?? b.uid, `${b.endpointId} ${b.endpoint}`, b.ratePerSecond, b.records, b.requests, made.get(`${b.uid} ${b.endpointId}`) ?? 0, limited.get(`${b.uid} ${b.endpointId}`) ?? 0, b.seconds])));
    // Where the time went: when the partitions of the 1 request/s endpoints started and ended.
    const slow = [...run.partitions].filter(([k]) => /\/(marginRecords|taxSpotRecords|taxFutureRecords|prices)\//.test(k));
    console.log(`\nthe 1 request/s partitions and the prices stream (${slow.length} of ${run.partitions.size} partitions), seconds after run-start:\n`);
    console.log(markdownTable(['partition', 'started s', 'done s'], slow.map(([k, p]) => [k, Number(p.startS.toFixed(1)), Number((p.doneS ?? NaN).toFixed(1))])));
    // When the 429s came: a burst at the start points at the first requests, spread out at pacing.
    const tooMany = run.retries.filter((r) => r.reason === '429').map((r) => r.atS);
    if (tooMany.length > 0) {
      const edges = [0, 5, 15, 30, 60, Infinity];
      const buckets = edges.slice(1).map((hi, i) => [`${edges[i]}-${hi} s`, tooMany.filter((t) => t >= edges[i]! && t < hi).length]);
      console.log(`\n429 retries by time after run-start:\n\n${markdownTable(['window', '429s'], buckets)}`);
    }
    const history = budgets.filter((b) => b.endpointId !== 'X12');
    const historyMade = history.reduce((s, b) => s + (made.get(`${b.uid} ${b.endpointId}`) ?? 0), 0);
    const minTotal = history.reduce((s, b) => s + b.requests, 0);
    const wallS = run.wallMs / 1000;
    const syncS = (run.syncMs ?? NaN) / 1000;
    console.log(`\nhistory requests: ${historyMade} made, ${minTotal} minimum; candle requests at least ${candleMin}; all requests ${after.total - before.total}; records ${summaryTotals(run.summary).records}; status ${run.summary?.status ?? `exit ${run.code}`}; peak RSS ${run.peakRssMb?.toFixed(0)} MB\n`);
    if (run.summary === undefined) {
      summary.push([safetyFactor, Number(minSeconds.toFixed(1)), `failed (exit ${run.code})`, '-', '-', '-', after.total429 - before.total429]);
      continue;
    }
    summary.push([safetyFactor, Number(minSeconds.toFixed(1)), Number(wallS.toFixed(1)), Number((wallS / minSeconds).toFixed(3)), Number(syncS.toFixed(1)), Number((syncS / minSeconds).toFixed(3)), after.total429 - before.total429]);
  } finally {
    await scratch.drop();
    await sandbox.close();
  }
}
console.log('### first sync vs the true floor, the slowest budget including the public candle budget (issue 24 target: wall <= 1.05x the floor, 0 429s)\n');
console.log(markdownTable(['client safety factor', 'minimum s', 'process wall s', 'wall / minimum', 'sync span s', 'sync / minimum', '429 answers'], summary));
