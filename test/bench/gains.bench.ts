// Lot matching throughput: 1,000,000 disposals (and as many acquisitions) across 50 assets under
// every rule set, the pure engine only (no database). Each rule set runs in its own child process,
// so its peak RSS is its own.
//   npx tsx test/bench/gains.bench.ts            # every rule set, 1,000,000 disposals
//   GAINS_BENCH_N=100000 npx tsx test/bench/gains.bench.ts
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import { ruleSet, ruleSetNames } from '../../src/gains/ruleSets.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';
import type { GainsEvent } from '../../src/gains/gainsEvent.js';

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

function runOne(name: RuleSetName | 'generate'): void {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let matches = 0;
  if (name === 'generate') {
    for (const e of events()) matches += e.quantity.isZero() ? 1 : 0;
  } else {
    const rules = ruleSet(name);
    const m = rules.matcher('universal');
    for (const e of events()) {
      for (const x of m.push(e)) { matches++; rules.classify(x); }
    }
    for (const x of m.finish()) { matches++; rules.classify(x); }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  const cpuSeconds = (c.user + c.system) / 1e6;
  process.stdout.write(JSON.stringify({ name, seconds, cpuSeconds, matches, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

const one = process.argv[2];
if (one) {
  runOne(one as RuleSetName | 'generate');
} else {
  const self = fileURLToPath(import.meta.url);
  process.stdout.write(`${N.toLocaleString('en')} disposals + ${N.toLocaleString('en')} acquisitions, ${ASSETS} assets\n\n`);
  // On a shared machine the wall time includes waiting for a core; CPU time is what the run used.
  process.stdout.write('| rules | wall s | disposals/s (wall) | CPU s | disposals/CPU s | matches | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|\n');
  for (const name of ['generate', ...ruleSetNames] as const) {
    const r = spawnSync(process.execPath, [...process.execArgv, self, name], { encoding: 'utf8', env: process.env });
    if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(1); }
    const x = JSON.parse(r.stdout) as { name: string; seconds: number; cpuSeconds: number; matches: number; peakRssMb: number };
    const rate = (s: number) => (name === 'generate' ? '(events only)' : Math.round(N / s).toLocaleString('en'));
    process.stdout.write(`| ${x.name} | ${x.seconds.toFixed(1)} | ${rate(x.seconds)} | ${x.cpuSeconds.toFixed(1)} | ${rate(x.cpuSeconds)} | ${x.matches.toLocaleString('en')} | ${x.peakRssMb} |\n`);
  }
}
