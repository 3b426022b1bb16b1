// Lot matching throughput: 1,000,000 disposals (and as many acquisitions) across 50 assets under
// every rule set, the pure engine only (no database), the matchers as they were before the
// scaled-integer engine (test/bench/support/matchersBefore.ts) paired with today's in the same
// run. Each (rule set, old or new) runs in its own child process, so its peak RSS is its own;
// after the timed pass the child runs again to hash every match and the holdings (not timed),
// and the table says whether old and new agree.
//   npx tsx test/bench/gains.bench.ts                 # every rule set, old and new, 1,000,000 disposals
//   npx tsx test/bench/gains.bench.ts us uk           # only these rule sets, old and new
//   npx tsx test/bench/gains.bench.ts --one us new    # one child's JSON line (as the table's runs)
//   GAINS_BENCH_N=100000 npx tsx test/bench/gains.bench.ts
//   GAINS_BENCH_HASH=0 ...                            # skip the hashing pass
// ca runs at GAINS_BENCH_CA_N disposals (20,000 unless set): its superficial-loss bookkeeping
// scans every pending loss on every event (old and new alike), and this stream keeps thousands
// of losses pending at once, so the time grows with the square of N (5,000: 0.5 s; 20,000:
// 3.5 s; 1,000,000 did not finish in 3.5 CPU minutes).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { GainsDecimal, ZERO } from '../../src/gains/gainsDecimal.js';
import { ruleSet, ruleSetNames } from '../../src/gains/ruleSets.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';
import type { GainsEvent, Match, Matcher } from '../../src/gains/gainsEvent.js';
import { matcherBefore } from './support/matchersBefore.js';

const N = Number(process.env.GAINS_BENCH_N ?? 1_000_000);
const ASSETS = 50;
const START = Date.parse('2023-01-01T00:00:00Z');
const STEP_MS = 47_000; // 2N events over about three years: some 36 events per asset and day

// Deterministic events: per step one acquisition (1.2 or 0.8 units, alternating per asset) and
// one disposal (1 unit) of an asset, prices cycling; three wallets; every asset starts with 100
// units. Decimals and day strings come from small tables, so the figure is the matching, not the
// making of the events (the runner parses its rows from PostgreSQL text, outside this figure).
const PRICES = 1000;
const qtys = [new GainsDecimal('1.2'), new GainsDecimal('0.8')];
const unit = new GainsDecimal(1);
const costs = [0, 1].map((q) => Array.from({ length: PRICES }, (_, k) => new GainsDecimal(10 + k / 100).times(qtys[q]!)));
const proceedsOf = Array.from({ length: PRICES }, (_, k) => new GainsDecimal(10.5 + k / 100));
const days = new Map<number, string>();
const dayOf = (ts: number) => {
  const n = Math.floor(ts / 86_400_000);
  let d = days.get(n);
  if (d === undefined) { d = new Date(n * 86_400_000).toISOString().slice(0, 10); days.set(n, d); }
  return d;
};

function* events(): Generator<GainsEvent> {
  const wallets = ['1001:spot', '1002:spot', '1003:spot'];
  for (let a = 0; a < ASSETS; a++) {
    yield { type: 'acquire', asset: `A${a}`, quantity: new GainsDecimal(100), cost: new GainsDecimal(1000), ts: START, day: '2023-01-01', pool: wallets[a % 3]!, ref: `seed|${a}|base` };
  }
  const assets = Array.from({ length: ASSETS }, (_, a) => `A${a}`);
  for (let i = 0; i < N; i++) {
    const ts = START + (2 * i + 1) * STEP_MS;
    const a = i % ASSETS;
    const pool = wallets[a % 3]!;
    const k = (i * 7919) % PRICES;
    const q = Math.floor(i / ASSETS) % 2;
    yield { type: 'acquire', asset: assets[a]!, quantity: qtys[q]!, cost: costs[q]![k]!, ts, day: dayOf(ts), pool, ref: `spot_fills|b${i}|base` };
    yield { type: 'dispose', asset: assets[a]!, quantity: unit, proceeds: proceedsOf[k]!, ts: ts + STEP_MS, day: dayOf(ts + STEP_MS), pool, ref: `spot_fills|s${i}|base` };
  }
}

type Variant = 'old' | 'new';
const matcherOf = (name: RuleSetName, variant: Variant): Matcher => (variant === 'old' ? matcherBefore(name, 'universal') : ruleSet(name).matcher('universal'));

// A match as gains.csv writes it (gainsStore.ts: every column, amounts by toFixed).
const row = (m: Match, cls: string) => [m.asset, m.quantity.toFixed(), m.acquiredDay, m.disposedDay, m.disposedTs, m.proceeds.toFixed(), m.cost.toFixed(), m.gain.toFixed(),
  m.basis, cls, m.pool, m.disposalRef, m.acquisitionRef, (m.disposalCosts ?? ZERO).toFixed(), (m.deniedLoss ?? ZERO).toFixed()].join(',');

/** sha256 of every match (in order, as gains.csv rows) and every holding after finish(). */
function hashRun(name: RuleSetName, variant: Variant): string {
  const rules = ruleSet(name);
  const m = matcherOf(name, variant);
  const h = createHash('sha256');
  for (const e of events()) for (const x of m.push(e)) h.update(`${row(x, rules.classify(x))}\n`);
  for (const x of m.finish()) h.update(`${row(x, rules.classify(x))}\n`);
  for (const o of m.holdings()) h.update(`holding,${o.asset},${o.pool},${o.quantity.toFixed()},${o.cost.toFixed()},${o.acquiredDay},${o.ref}\n`);
  return h.digest('hex');
}

function runOne(name: RuleSetName | 'generate', variant: Variant): void {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let matches = 0;
  if (name === 'generate') {
    for (const e of events()) matches += e.quantity.isZero() ? 1 : 0;
  } else {
    const rules = ruleSet(name);
    const m = matcherOf(name, variant);
    for (const e of events()) {
      for (const x of m.push(e)) { matches++; rules.classify(x); }
    }
    for (const x of m.finish()) { matches++; rules.classify(x); }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  const cpuSeconds = (c.user + c.system) / 1e6;
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const hash = name !== 'generate' && process.env.GAINS_BENCH_HASH !== '0' ? hashRun(name, variant) : '';
  process.stdout.write(JSON.stringify({ name, variant, n: N, seconds, cpuSeconds, matches, peakRssMb, hash }));
}

if (process.argv[2] === '--one') {
  runOne(process.argv[3] as RuleSetName | 'generate', (process.argv[4] ?? 'new') as Variant);
} else {
  const self = fileURLToPath(import.meta.url);
  const asked = process.argv.slice(2) as RuleSetName[];
  for (const a of asked) if (!(ruleSetNames as readonly string[]).includes(a)) throw new Error(`unknown rule set ${a}`);
  process.stdout.write(`${N.toLocaleString('en')} disposals + ${N.toLocaleString('en')} acquisitions, ${ASSETS} assets; old = the matchers before the scaled-integer engine, new = src/gains\n\n`);
  // On a shared machine the wall time includes waiting for a core; CPU time is what the run used.
  process.stdout.write('| rules | code | wall s | disposals/s (wall) | CPU s | disposals/CPU s | matches | peak RSS MB | sha256 of matches + holdings | old = new |\n|---|---|---:|---:|---:|---:|---:|---:|---|---|\n');
  const caN = Math.min(N, Number(process.env.GAINS_BENCH_CA_N ?? 20_000));
  const spawn = (name: string, variant: Variant) => {
    const env = name === 'ca' ? { ...process.env, GAINS_BENCH_N: String(caN) } : process.env;
    const r = spawnSync(process.execPath, [...process.execArgv, self, '--one', name, variant], { encoding: 'utf8', env });
    if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(1); }
    return JSON.parse(r.stdout) as { name: string; variant: Variant; n: number; seconds: number; cpuSeconds: number; matches: number; peakRssMb: number; hash: string };
  };
  let differ = 0;
  for (const name of asked.length > 0 ? asked : (['generate', ...ruleSetNames] as const)) {
    const runs = name === 'generate' ? [spawn(name, 'new')] : [spawn(name, 'old'), spawn(name, 'new')];
    const same = runs.length === 2 && runs[0]!.hash !== '' ? (runs[0]!.hash === runs[1]!.hash && runs[0]!.matches === runs[1]!.matches ? 'yes' : 'NO') : '';
    if (same === 'NO') differ++;
    for (const x of runs) {
      const rate = (s: number) => (name === 'generate' ? '(events only)' : Math.round(x.n / s).toLocaleString('en'));
      process.stdout.write(`| ${x.name}${x.n !== N ? ` (${x.n.toLocaleString('en')} disposals)` : ''} | ${name === 'generate' ? '' : x.variant} | ${x.seconds.toFixed(1)} | ${rate(x.seconds)} | ${x.cpuSeconds.toFixed(1)} | ${rate(x.cpuSeconds)} | ${x.matches.toLocaleString('en')} | ${x.peakRssMb} | ${x.hash.slice(0, 12)} | ${x.variant === 'new' ? same : ''} |\n`);
    }
  }
  if (differ > 0) { process.stderr.write(`${differ} rule set(s): old and new matches differ\n`); process.exit(1); }
}
