// The sync process's CPU per history record outside HTTP and PostgreSQL: decoding each answer
// (api/interpretResponse.ts), reading the page, mapping every record (load/recordMapper.ts, fee
// rows included) and writing the batch's JSON (load/storableJson.ts), on real sandbox answers.
// Compiled code (dist/), this tree against another, alternating round by round in one process, so
// a shared machine's load falls on both alike. Run by hand; results go to BENCHMARKS.md:
//
//   npm run build && (cd /other/tree && npm run build)
//   BENCH_OLD_TREE=/other/tree npx tsx test/bench/pageDecode.bench.ts
//
// Every record's output (raw text, values sent, key, problems, fee rows) and every batch's JSON
// are compared between the two trees first.
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import type { PartitionContext } from '../../src/extract/streamDef.js';
import { accountScale } from './support/accountScale.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';

const DAY = 86_400_000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 16);
const perStream = Number(process.env.BENCH_PER_STREAM ?? 15_000);
const names = ['spotOrders', 'spotFills', 'spotBills', 'futuresFills', 'futuresBills', 'futuresOrders', 'marginRecords', 'deposits', 'withdrawals'];

console.log(machineInfo());
const sandbox = await startSandbox({ port: 0, seed: 1, scale: accountScale(100_000), rateLimit: false });
const key = sandbox.accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;
const client = new ExchangeClient({
  baseUrl: sandbox.baseUrl, budgetKey: key.uid, budgets: new RateBudgets(), rateLimit: false,
  credentials: { apiKey: key.apiKey, secretKey: key.secretKey, passphrase: key.passphrase, demo: false },
});
// Each answer as the body text the sandbox sent (its JSON.stringify of the envelope), per stream,
// newest windows first.
const bodies: { stream: string; partition: Record<string, string>; text: string }[] = [];
const counts: Record<string, number> = {};
for (const name of names) {
  const stream = historyStreams.find((s) => s.name === name)!;
  const partitions = await stream.partitions({} as PartitionContext);
  const span = Math.min(stream.spanDays ?? 30, 30) - 1;
  let n = 0;
  for (const partition of partitions.slice(0, 1)) {
    for (let end = sandbox.world.now(); n < perStream && end > sandbox.world.now() - (name.endsWith('Orders') ? 85 : 700) * DAY; end -= span * DAY) {
      let cursor: string | undefined;
      for (;;) {
        const params: Record<string, string> = { ...partition.params, startTime: String(end - span * DAY), endTime: String(end), limit: String(stream.limit) };
        if (cursor !== undefined) params.idLessThan = cursor;
        const data = await client.request(stream.endpoint, params);
        bodies.push({ stream: name, partition: partition.columns, text: JSON.stringify({ code: '00000', msg: 'success', requestTime: Date.now(), data }) });
        const page = stream.readPage(data);
        n += page.records.length;
        if (page.records.length < stream.limit || page.next === undefined) break;
        cursor = page.next;
      }
    }
  }
  counts[name] = n;
}
await client.close();
await sandbox.close();

const coinsOf = (symbol: string) => (symbol.endsWith('USDT') ? { baseCoin: symbol.slice(0, -4), quoteCoin: 'USDT' } : undefined);
type Pass = (compare?: boolean) => { out: string[]; records: number };
async function side(tree: string): Promise<Pass> {
  const dist = `${tree}/dist`;
  const { interpretResponse } = await import(`${dist}/api/interpretResponse.js`);
  const { endpoints } = await import(`${dist}/api/endpoints.js`);
  const { historyStreams: streams } = await import(`${dist}/extract/streamRegistry.js`);
  const { mapperOf } = await import(`${dist}/extract/pageRecords.js`);
  const { leanBatchJson } = await import(`${dist}/load/storableJson.js`);
  return (compare = false) => {
    const out: string[] = [];
    let records = 0;
    for (const b of bodies) {
      const stream = streams.find((s: { name: string }) => s.name === b.stream);
      const outcome = interpretResponse(stream.endpoint, endpoints[stream.endpoint], { status: 200, headers: {}, text: b.text }, []);
      const page = stream.readPage(outcome.envelope.data);
      const map = mapperOf(stream);
      const rows = page.records.map((r: unknown) => map(r, b.partition, [], coinsOf));
      records += rows.length;
      const json = leanBatchJson(rows);
      if (compare) out.push(json.raws + json.sets + JSON.stringify(rows.map((r: { key: string; problems: unknown; fees: unknown }) => [r.key, r.problems, r.fees])));
    }
    return { out, records };
  };
}

const here = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const sides: Record<string, Pass> = { new: await side(here) };
const oldTree = process.env.BENCH_OLD_TREE;
if (oldTree) {
  sides.old = await side(oldTree);
  const [a, b] = [sides.old(true), sides.new!(true)];
  const differing = a.out.filter((x, i) => x !== b.out[i]).length;
  console.log(`- pages whose rows differ between ${oldTree} and this tree: ${differing} of ${a.out.length}`);
}
const cpuMs: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
let total = 0;
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
  for (const s of order) {
    const t = process.cpuUsage();
    total = sides[s]!().records;
    const d = process.cpuUsage(t);
    cpuMs[s]!.push((d.user + d.system) / 1000);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`- ${total} records in ${bodies.length} answers (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}), ${rounds} rounds, alternating\n`);
console.log(markdownTable(['code', 'median CPU ms per pass', 'µs per record', 'CPU ms per pass, in order'],
  Object.entries(cpuMs).map(([s, xs]) => [s, Math.round(median(xs)), Number(((median(xs) * 1000) / total).toFixed(2)), xs.map((x) => Math.round(x)).join(' ')])));
