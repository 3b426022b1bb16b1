// The gains runner's Node side without the database: the valued ledger of a kept gainsRunner
// database (BENCH_KEEP=1 npx tsx test/bench/gainsRunner.bench.ts) read once into memory as the
// runner reads it (text arrays), then, alternately in one process, today's code and the code kept
// beside this bench (support/ledgerEventsBefore.ts) turn the same rows into events and match them
// (uk or fifo). Prints CPU ms per pass and whether both gave the same matches, income and
// problems (hashed as text).
//   LEDGER_DB=postgres://.../tl_bench_gainsrunner_x npx tsx test/bench/ledgerEvents.bench.ts [uk|fifo] [rounds]
// For figures, run it compiled as the CLI is: tsx keeps every function's name (esbuild keepNames),
// which wraps each closure ledgerEvents makes per call and, under tsx, cost ~30% of the pass:
//   npx esbuild test/bench/ledgerEvents.bench.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench-tmp/leb.mjs
//   LEDGER_DB=... node .bench-tmp/leb.mjs uk 10
import { createHash } from 'node:crypto';
import pg from 'pg';
import { VALUED_LEDGER_PACKED_SQL, packedValuedRow } from '../../src/gains/runGains.js';
import { LedgerStream } from '../../src/gains/ledgerStream.js';
import type { LedgerOutcome, ValuedRow } from '../../src/gains/ledgerEvents.js';
import { ruleSet } from '../../src/gains/ruleSets.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';
import { LedgerStreamBefore } from './support/ledgerEventsBefore.js';

const url = process.env.LEDGER_DB;
if (!url) throw new Error('set LEDGER_DB to a kept gainsRunner database');
const rules = (process.argv[2] ?? 'uk') as RuleSetName;
const rounds = Number(process.argv[3] ?? 5);

const client = new pg.Client({ connectionString: url });
await client.connect();
const res = await client.query({ text: VALUED_LEDGER_PACKED_SQL, values: ['GBP', 'Europe/London', '', '2025-05-07', false, '-infinity', 'infinity'], rowMode: 'array' });
await client.end();
const raw = res.rows as (string | null)[][];
console.log(`${raw.length} rows`);


interface Stream { push(row: ValuedRow): LedgerOutcome[]; finish(): LedgerOutcome[] }

function pass(make: () => Stream, hash: boolean): { ms: number; digest: string } {
  const h = hash ? createHash('sha256') : undefined;
  const stream = make();
  const matcher = ruleSet(rules).matcher('universal');
  const t0 = process.cpuUsage();
  let matches = 0;
  const take = (outs: LedgerOutcome[]) => {
    for (const o of outs) {
      for (const e of o.events) {
        const ms = matcher.push(e);
        matches += ms.length;
        if (h) for (const m of ms) h.update(`${m.asset}|${m.quantity.toFixed()}|${m.cost.toFixed()}|${m.proceeds.toFixed()}|${m.disposedDay}|${m.basis}\n`);
      }
      if (h) for (const i of o.income) h.update(`i|${i.category}|${i.quantity.toFixed()}|${i.value?.toFixed()}|${i.ref}\n`);
      if (h) for (const p of o.problems) h.update(`p|${p.problem}|${p.ref}|${p.detail}\n`);
    }
  };
  for (const r of raw) take(stream.push(packedValuedRow(r)));
  take(stream.finish());
  const ms = matcher.finish();
  matches += ms.length;
  if (h) for (const m of ms) h.update(`${m.asset}|${m.quantity.toFixed()}|${m.cost.toFixed()}|${m.proceeds.toFixed()}|${m.disposedDay}|${m.basis}\n`);
  const u = process.cpuUsage(t0);
  return { ms: (u.user + u.system) / 1000, digest: `${matches}:${h?.digest('hex').slice(0, 16) ?? ''}` };
}

const makers: Record<string, () => Stream> = { old: () => new LedgerStreamBefore('GBP'), new: () => new LedgerStream('GBP') };
const digests = Object.fromEntries(Object.entries(makers).map(([k, m]) => [k, pass(m, true).digest]));
console.log('digests', digests, digests.old === digests.new ? 'EQUAL' : 'DIFFERENT');
const times: Record<string, number[]> = { old: [], new: [] };
for (let i = 0; i < rounds; i++) for (const k of i % 2 === 0 ? ['old', 'new'] : ['new', 'old']) times[k]!.push(pass(makers[k]!, false).ms);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const k of ['old', 'new']) console.log(`${k}: ${times[k]!.map((t) => t.toFixed(0)).join(' / ')} ms CPU (median ${median(times[k]!).toFixed(0)})`);
console.log(`new / old (medians): ${(median(times.new!) / median(times.old!)).toFixed(3)}`);
