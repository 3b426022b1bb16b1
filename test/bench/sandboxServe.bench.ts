// Sandbox CPU per served record: the sandbox's share of the throughput benchmark, on its own.
// Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/sandboxServe.bench.ts                  # 200k readable records
//   BENCH_RECORDS=50000 npx tsx test/bench/sandboxServe.bench.ts
//   BENCH_CPU_PROF=/tmp/prof npx tsx test/bench/sandboxServe.bench.ts   # V8 profile of the sandbox
//   BENCH_BY_STREAM=1 npx tsx test/bench/sandboxServe.bench.ts  # one stream at a time, CPU per stream
//
// The sandbox runs in a child process, started as the throughput benchmark starts it
// (startSandbox seed 1, scale accountScale(N), rate limits off), so its process.cpuUsage is its
// own. This process pages every history stream of the main account as the sync does: the sync's
// own stream table (page size, span, horizon, partitions, page reader) and window plan, windows
// oldest to newest, pages newest to oldest by the cursor, 8 partitions at a time. The figure is
// the sandbox's CPU (user + system) from after startup to the end of the pass, per 1,000
// records served.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { DAY_MS, endpoints } from '../../src/api/endpoints.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import type { HistoryStream, Partition, PartitionContext } from '../../src/extract/streamDef.js';
import { planWindows } from '../../src/extract/windowPlan.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import type { AccountLine } from '../../src/sandbox/server/describeAccounts.js';
import { call } from '../support/signedClient.js';
import { accountScale } from './support/accountScale.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';

interface Ready { baseUrl: string; accounts: AccountLine[]; symbols: string[] }
type Cpu = NodeJS.CpuUsage;

async function child(records: number): Promise<void> {
  const sandbox = await startSandbox({ port: 0, seed: 1, scale: accountScale(records), rateLimit: false });
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: process.cpuUsage(), rssMb: Math.round(process.memoryUsage().rss / 1048576) });
    if (m === 'exit') void sandbox.close().then(() => process.exit(0));
  });
  process.send!({ baseUrl: sandbox.baseUrl, accounts: sandbox.accounts, symbols: sandbox.world.symbols().map((s) => s.symbol) } satisfies Ready);
}

function ask<T>(proc: ChildProcess, message?: string): Promise<T> {
  return new Promise((resolve) => {
    proc.once('message', (m) => resolve(m as T));
    if (message !== undefined) proc.send(message);
  });
}

/** Pages one partition through all its windows as runHistoryPartition does; returns records and pages. */
async function walk(baseUrl: string, key: AccountLine, stream: HistoryStream, partition: Partition, now: number): Promise<[number, number]> {
  const plan = planWindows({
    spanDays: stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable, checkpoint: undefined, now,
    settings: { safetyLagMs: 120_000, since: undefined, historyDays: 730, lookbackDays: 7, horizonMarginMs: 300_000 },
  });
  const path = endpoints[stream.endpoint].path;
  let records = 0;
  let pages = 0;
  for (const w of plan.windows) {
    let cursor: string | undefined;
    for (;;) {
      const query: Record<string, string> = { ...partition.params, startTime: String(w.start), endTime: String(w.end), limit: String(stream.limit) };
      if (cursor !== undefined) query.idLessThan = cursor;
      const r = await call(baseUrl, key, path, { query });
      if (r.json?.code !== '00000') throw new Error(`${path} ${JSON.stringify(query)}: ${r.status} ${r.text.slice(0, 200)}`);
      const page = stream.readPage(r.json.data);
      records += page.records.length;
      pages++;
      const next = page.next;
      if (page.records.length < stream.limit || next === undefined || (cursor !== undefined && BigInt(next) >= BigInt(cursor))) break;
      cursor = next;
    }
  }
  return [records, pages];
}

async function parent(): Promise<void> {
  const target = Number(process.env.BENCH_RECORDS ?? 200_000);
  const prof = process.env.BENCH_CPU_PROF;
  const proc = fork(fileURLToPath(import.meta.url), ['--child', String(target)], {
    execArgv: [...process.execArgv, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])],
  });
  const ready = await ask<Ready>(proc);
  const startup = (await ask<{ cpu: Cpu }>(proc, 'cpu')).cpu;
  const key = ready.accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;
  const ctx: PartitionContext = { demo: false, main: true, symbols: async () => ready.symbols, subAccountUids: async () => key.subUids };
  const jobs: { stream: HistoryStream; partition: Partition }[] = [];
  for (const stream of historyStreams) for (const partition of await stream.partitions(ctx)) jobs.push({ stream, partition });
  const now = Date.now();
  const byStream = process.env.BENCH_BY_STREAM === '1';
  const perStream = new Map<string, [number, number, number]>();
  const run = async (j: (typeof jobs)[number]): Promise<void> => {
    const [records, pages] = await walk(ready.baseUrl, key, j.stream, j.partition, now);
    const s = perStream.get(j.stream.name) ?? [0, 0, 0];
    perStream.set(j.stream.name, [s[0] + records, s[1] + pages, s[2]]);
  };
  const t0 = performance.now();
  if (byStream) {
    // One stream after another, so the sandbox's CPU can be told apart per stream.
    for (const stream of historyStreams) {
      const before = (await ask<{ cpu: Cpu }>(proc, 'cpu')).cpu;
      for (const j of jobs.filter((x) => x.stream === stream)) await run(j);
      const after = (await ask<{ cpu: Cpu }>(proc, 'cpu')).cpu;
      const s = perStream.get(stream.name);
      if (s) s[2] = (after.user + after.system - before.user - before.system) / 1e6;
    }
  } else {
    const limit = pLimit(8);
    await Promise.all(jobs.map((j) => limit(() => run(j))));
  }
  const wallS = (performance.now() - t0) / 1000;
  const end = await ask<{ cpu: Cpu; rssMb: number }>(proc, 'cpu');
  proc.send('exit');
  const records = [...perStream.values()].reduce((a, [r]) => a + r, 0);
  const pages = [...perStream.values()].reduce((a, [, p]) => a + p, 0);
  const user = (end.cpu.user - startup.user) / 1e6;
  const system = (end.cpu.system - startup.system) / 1e6;
  console.log(machineInfo());
  console.log(`- sandbox: child process, seed 1, scale accountScale(${target}), rate limits off; client: main account, every history stream, ${byStream ? 'one stream at a time' : '8 partitions at a time'}\n`);
  console.log(markdownTable(['stream', 'records', 'pages', ...(byStream ? ['sandbox CPU s', 'CPU ms per 1,000 records'] : [])],
    [...perStream].map(([name, [r, p, c]]) => [name, r, p, ...(byStream ? [Number(c.toFixed(2)), Number(((c * 1e6) / Math.max(1, r)).toFixed(1))] : [])])));
  console.log();
  console.log(markdownTable(
    ['target N', 'records served', 'pages', 'wall s', 'sandbox CPU s (user + sys)', 'sandbox CPU ms per 1,000 records', 'startup CPU s', 'sandbox RSS MB'],
    [[target, records, pages, Number(wallS.toFixed(1)), `${(user + system).toFixed(2)} (${user.toFixed(2)} + ${system.toFixed(2)})`,
      Number((((user + system) * 1e6) / records).toFixed(2)), Number(((startup.user + startup.system) / 1e6).toFixed(2)), end.rssMb]],
  ));
}

if (process.argv[2] === '--child') await child(Number(process.argv[3]));
else await parent();
