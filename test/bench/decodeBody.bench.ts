/**
 * Measures response decoding on a 500-record page: plain JSON.parse (loses digits), lossless-json
 * on every body, and the API's decoding, parseJsonLossless(text, 'exact') in src/normalize/losslessJson.ts
 * (JSON.parse unless a number is unsafe; the column keeps its old name decodeBody). Run by hand:
 *   npx tsx test/bench/decodeBody.bench.ts
 * It prints a table; it is not a test.
 */
import { parse as parseLossless } from 'lossless-json';
import { parseJsonLossless } from '../../src/normalize/losslessJson.js';

function page(amount: (i: number) => string): string {
  const records = Array.from({ length: 500 }, (_, i) => `{"userId":"1001","symbol":"BTCUSDT","orderId":"${1_200_000_000_000 + i}",` +
    `"clientOid":"c-${i}","price":${amount(i)},"size":${amount(i + 1)},"orderType":"limit","side":"buy","status":"filled",` +
    `"priceAvg":${amount(i + 2)},"baseVolume":${amount(i + 3)},"quoteVolume":${amount(i + 4)},"enterPointSource":"API",` +
    `"feeDetail":"{\\"newFees\\":{\\"c\\":0,\\"d\\":0,\\"r\\":-0.00012,\\"t\\":-0.00012,\\"deduction\\":false,\\"totalDeductionFee\\":0}}",` +
    `"orderSource":"normal","cTime":"${1_700_000_000_000 + i}","uTime":"${1_700_000_000_500 + i}"}`);
  return `{"code":"00000","msg":"success","requestTime":1700000001000,"data":[${records.join(',')}]}`;
}

const bodies = {
  'amounts as strings (spec)': page((i) => `"${(27123.5 + i / 100).toFixed(8)}"`),
  'amounts as safe numbers': page((i) => (27123.5 + i / 100).toFixed(2)),
  'one unsafe number': page((i) => (i === 250 ? '0.123456789012345678901' : `"${(i / 100).toFixed(8)}"`)),
};
const parsers: Record<string, (t: string) => unknown> = {
  'JSON.parse': (t) => JSON.parse(t),
  'lossless-json': (t) => parseLossless(t),
  decodeBody: (t) => parseJsonLossless(t, 'exact'),
};

function msPerParse(fn: (t: string) => unknown, text: string): number {
  const runs = 50;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) fn(text);
  return (performance.now() - t0) / runs;
}

// Rounds interleave the parsers and the best round counts, so load from other processes on a
// shared machine affects all three alike and mostly drops out.
const rows = Object.entries(bodies).map(([body, text]) => {
  for (const fn of Object.values(parsers)) for (let i = 0; i < 30; i++) fn(text);
  const best: Record<string, number> = {};
  for (let round = 0; round < 7; round++) {
    for (const [name, fn] of Object.entries(parsers)) best[name] = Math.min(best[name] ?? Infinity, msPerParse(fn, text));
  }
  const row: Record<string, string> = { body, KB: (text.length / 1024).toFixed(0) };
  for (const [name, ms] of Object.entries(best)) row[`${name} ms`] = ms.toFixed(3);
  row['decodeBody / JSON.parse'] = ((best.decodeBody as number) / (best['JSON.parse'] as number)).toFixed(2);
  return row;
});
console.table(rows);
