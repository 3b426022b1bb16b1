// The TypeScript CPU of turning history records into rows (the record mapper with its column
// readers, shape checks and fee rows), on real sandbox pages, without HTTP or PostgreSQL in the
// figure. Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/recordMapper.bench.ts
//   BENCH_OLD_TREE=/work/main npx tsx test/bench/recordMapper.bench.ts   # A/B against another checkout
//
// With BENCH_OLD_TREE the other checkout's `toRow` (src/extract/pageRecords.ts, the form before
// issue 14: `{ row, fees }`) maps the same records, alternating with this tree's mapper round by
// round, and every record's output (raw, values sent, key, problems, fee rows) is compared.
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { mapperOf } from '../../src/extract/pageRecords.js';
import type { LeanRow } from '../../src/load/recordMapper.js';
import { accountScale } from './support/accountScale.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';

const DAY = 86_400_000;
const names = ['spotOrders', 'spotFills', 'futuresFills', 'spotBills'];
const rounds = Number(process.env.BENCH_ROUNDS ?? 24);

console.log(machineInfo());
const sandbox = await startSandbox({ port: 0, seed: 1, scale: accountScale(50_000), rateLimit: false });
const key = sandbox.accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;
const client = new ExchangeClient({
  baseUrl: sandbox.baseUrl, budgetKey: key.uid, budgets: new RateBudgets(), rateLimit: false,
  credentials: { apiKey: key.apiKey, secretKey: key.secretKey, passphrase: key.passphrase, demo: false },
});
// Up to 20,000 records per stream, newest windows first (spot orders: X1's 90-day horizon).
const pages: Record<string, Record<string, unknown>[]> = {};
for (const name of names) {
  const stream = historyStreams.find((s) => s.name === name)!;
  const span = name === 'spotOrders' ? 88 : 89;
  const records: Record<string, unknown>[] = [];
  for (let end = sandbox.world.now(); records.length < 20_000 && end > sandbox.world.now() - (name === 'spotOrders' ? 88 : 700) * DAY; end -= span * DAY) {
    let cursor: string | undefined;
    for (;;) {
      const params: Record<string, string> = { startTime: String(end - span * DAY), endTime: String(end), limit: String(stream.limit), ...(name.startsWith('futures') ? { productType: 'USDT-FUTURES' } : {}) };
      if (cursor !== undefined) params.idLessThan = cursor;
      const page = stream.readPage(await client.request(stream.endpoint, params));
      records.push(...page.records);
      if (page.records.length < stream.limit || page.next === undefined) break;
      cursor = page.next;
    }
  }
  pages[name] = records;
}
await client.close();
await sandbox.close();

const coinsOf = (symbol: string) => (symbol.endsWith('USDT') ? { baseCoin: symbol.slice(0, -4), quoteCoin: 'USDT' } : undefined);
const partition = { key: 'all', params: {}, columns: {} };
// The old tree's rows carry the record as an object (`raw`), this tree's as its JSON text (`rawJson`).
type Side = (name: string, raw: Record<string, unknown>) => Pick<LeanRow, 'set' | 'key' | 'problems' | 'fees'> & { raw?: unknown; rawJson?: string };
const sides: Record<string, Side> = {
  new: (name, raw) => mapperOf(historyStreams.find((s) => s.name === name)!)(raw, partition.columns, [], coinsOf),
};
const oldTree = process.env.BENCH_OLD_TREE;
if (oldTree) {
  const old = await import(`${oldTree}/src/extract/pageRecords.ts`);
  const oldStreams = (await import(`${oldTree}/src/extract/streamRegistry.ts`)).historyStreams as { name: string }[];
  sides.old = (name, raw) => {
    const r = old.toRow({ coinsOf }, oldStreams.find((s) => s.name === name)!, partition, raw);
    // Before issue 14 toRow gave `{ row, fees }`; since, a LeanRow as this tree's does.
    return 'row' in r ? { ...r.row, fees: r.fees } : r;
  };
  let differing = 0;
  for (const [name, records] of Object.entries(pages)) {
    for (const raw of records) {
      const [a, b] = [sides.old(name, raw), sides.new!(name, raw)].map((r) => JSON.stringify([r.rawJson === undefined ? r.raw : JSON.parse(r.rawJson), r.set, r.key, r.problems, r.fees]));
      if (a !== b) differing++;
    }
  }
  console.log(`- records whose output differs between ${oldTree} and this tree: ${differing}`);
}

const cpuMs: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
let sink = 0;
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
  for (const side of order) {
    const map = sides[side]!;
    const t = process.cpuUsage();
    for (const [name, records] of Object.entries(pages)) for (const raw of records) sink += map(name, raw).problems.length;
    const d = process.cpuUsage(t);
    cpuMs[side]!.push((d.user + d.system) / 1000);
  }
}
const total = Object.values(pages).reduce((n, r) => n + r.length, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`- ${total} records (${names.map((n) => `${n} ${pages[n]!.length}`).join(', ')}), ${rounds} rounds, alternating; (checksum ${sink})\n`);
console.log(markdownTable(['code', 'median CPU ms per pass', 'µs per record', 'CPU ms per pass, in order'],
  Object.entries(cpuMs).map(([side, xs]) => [side, Math.round(median(xs)), Number(((median(xs) * 1000) / total).toFixed(1)), xs.map((x) => Math.round(x)).join(' ')])));
