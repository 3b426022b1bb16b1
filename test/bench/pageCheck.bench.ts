// What checking every page against its request (src/extract/pageCheck.ts, issue 9) costs per
// record, next to the sync's whole per-record budget. Run by hand, results go to BENCHMARKS.md:
//
//   npx tsx test/bench/pageCheck.bench.ts
//
// Pages of 100 spot fills shaped like the sandbox's (13-digit times, 19-digit ids), newest first;
// the best of 5 rounds of 10,000 pages.
import { checkPage } from '../../src/extract/pageCheck.js';
import type { Page } from '../../src/extract/streamDef.js';

const start = 1_700_000_000_000;
const end = start + 90 * 86_400_000;
const pages: Page[] = Array.from({ length: 100 }, (_, p) => ({
  records: Array.from({ length: 100 }, (_, i) => {
    const t = end - 1 - (p * 100 + i) * 60_000;
    return { tradeId: `${t}734659`, orderId: `${t}000001`, cTime: String(t), side: 'buy', size: '0.01' };
  }),
  others: [],
  next: undefined,
  cursorFromServer: false,
}));

let best = Infinity;
for (let round = 0; round < 5; round++) {
  const t0 = process.hrtime.bigint();
  for (let n = 0; n < 10_000; n++) {
    const v = checkPage(pages[n % 100]!, { start, end, cursor: undefined, limit: 100, idField: 'tradeId', timeField: 'cTime' });
    if (v.fault !== undefined || v.next === undefined) throw new Error(`unexpected verdict: ${v.fault}`);
  }
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
}
const perRecordUs = (best * 1000) / 1_000_000;
console.log('| records checked | best of 5 (ms) | per record (µs) |');
console.log('|---|---|---|');
console.log(`| 1,000,000 | ${best.toFixed(0)} | ${perRecordUs.toFixed(2)} |`);
