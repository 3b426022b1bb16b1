// Benchmark 3 (issue 3, Performance, "Nightly run"): after a full first sync of one large
// account, one day of new data, then the nightly `tradeledger sync`; requests made against the
// least needed (see support/nightlyRun.ts for both minima). Run by hand; results go to
// BENCHMARKS.md:
//
//   npx tsx test/bench/syncNightly.bench.ts                        # 1,000,000 records
//   BENCH_RECORDS=200000 npx tsx test/bench/syncNightly.bench.ts
//
// Why not POST /_sandbox/advance: it moves the sandbox clock a day ahead of this machine's, and
// the client rightly refuses a clock a day off (maxClockSkewSeconds) and never plans windows
// past min(local, server time). Instead the first sync runs with a safety lag of one day plus
// the default 120 s, so its watermark stops a day short, and the nightly run (default lag) finds
// exactly one day of history it has not read. Rate limits are off (requests are counted, not
// timed).
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { accountScale } from './support/accountScale.js';
import { machineInfo } from './support/machineInfo.js';
import { nightlyRun, oneDayBehindSeconds } from './support/nightlyRun.js';
import { runSyncProcess, summaryTotals } from './support/runSyncProcess.js';
import { sandboxSyncConfig } from './support/sandboxSyncConfig.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const records = Number(process.env.BENCH_RECORDS ?? 1_000_000);

console.log(machineInfo());
console.log(`- sandbox: seed 1, rate limits off, scale accountScale(${records}); sync: \`--account main\`, client.rateLimit false\n`);
const sandbox = await startSandbox({ port: 0, seed: 1, scale: accountScale(records), rateLimit: false });
const scratch = await scratchDatabase('nightly');
try {
  const { file, env, accounts } = sandboxSyncConfig(sandbox, { safetyLagSeconds: oneDayBehindSeconds }, { rateLimit: false });
  const args = ['--account', 'main'];
  const first = await runSyncProcess(['--config', file, ...args], { ...env, DATABASE_URL: scratch.url });
  if (first.code !== 0) console.log(`the first sync exited ${first.code}; failed partitions:\n${first.failures.join('\n') || first.stderrTail.slice(-3000)}`);
  console.log(`first sync: ${summaryTotals(first.summary).records.toLocaleString('en-US')} records in ${(first.wallMs / 1000).toFixed(1)} s`);
  console.log(await nightlyRun({ sandbox, file, env, databaseUrl: scratch.url, accounts: accounts.filter((a) => a.name === 'main'), args }));
} finally {
  await scratch.drop();
  await sandbox.close();
}
