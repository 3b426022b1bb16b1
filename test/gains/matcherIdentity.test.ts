import { describe, expect, it } from 'vitest';
import { rng } from '../support/seededRandom.js';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import type { GainsEvent, Match, Matcher, OpenHolding } from '../../src/gains/gainsEvent.js';
import { parseLotSelections } from '../../src/gains/lotSelections.js';
import { TRANSIT } from '../../src/gains/lotMatcher.js';
import { ruleSet, ruleSetNames } from '../../src/gains/ruleSets.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';
import { matcherBefore } from '../bench/support/matchersBefore.js';

// The matchers compute in scaled integers (src/gains/scaledDecimal.ts); before, they computed in
// decimal.js. This pins the new ones to the old (kept in test/bench/support/*Before.ts) on
// deterministic streams of awkward events: every column of every match, the holdings, and the
// errors, for every rule set and both pool choices.


/** A decimal string of `int` integer digits at most and `places` decimals, written digit by digit. */
function digits(r: () => number, int: number, places: number): string {
  let a = '';
  const n = Math.floor(r() * (int + 1));
  for (let i = 0; i < n; i++) a += String(Math.floor(r() * 10));
  let f = '';
  for (let i = 0; i < places; i++) f += String(Math.floor(r() * 10));
  const text = `${a.replace(/^0+/, '') || '0'}${f ? `.${f}` : ''}`;
  return text;
}

/** A quantity (> 0): plain, 8 or 18 decimals, the smallest unit, or large. */
function quantity(r: () => number): string {
  const x = r();
  const text = x < 0.25 ? digits(r, 1, 1) : x < 0.5 ? digits(r, 2, 8) : x < 0.7 ? digits(r, 1, 18) : x < 0.78 ? '0.000000000000000001' : x < 0.9 ? digits(r, 6, 3) : digits(r, 3, 30);
  return new GainsDecimal(text).isZero() ? '0.5' : text;
}

/** A fiat amount: zero, pennies, 12 or 30 decimals, or large; negative when `signed` says so. */
function amount(r: () => number, signed: boolean): string {
  const x = r();
  const text = x < 0.1 ? '0' : x < 0.4 ? digits(r, 5, 2) : x < 0.65 ? digits(r, 4, 12) : x < 0.8 ? digits(r, 3, 30) : x < 0.9 ? digits(r, 12, 8) : digits(r, 9, 4);
  return signed && r() < 0.12 && text !== '0' ? `-${text}` : text;
}

/**
 * Three months across the US switch to wallets (2024-11 to 2025-02), two assets, three wallets
 * and the transit pool: buys (some at no cost), sells (with and without incidental costs, some at
 * a loss, some for negative proceeds, some beyond what is held), own-account moves and one-sided
 * transfers through transit, many on one day (UK same day, 30 days; Canadian superficial losses).
 */
function stream(seed: number, length: number, huge = false): GainsEvent[] {
  const r = rng(seed);
  const events: GainsEvent[] = [];
  const wallets = ['w1', 'w2', 'w3'];
  let ts = Date.UTC(2024, 10, 1, 9);
  for (let i = 0; i < length; i++) {
    ts += Math.floor(r() * 3) * 36_000_000 + 1000; // often the same day
    const day = new Date(ts).toISOString().slice(0, 10);
    const asset = r() < 0.6 ? 'A' : 'B';
    const pool = wallets[Math.floor(r() * 3)]!;
    const q = huge && r() < 0.3 ? `${digits(r, 20, 0)}.${'7'.repeat(40)}1` : quantity(r);
    const x = r();
    if (x < 0.45) {
      const cost = huge && r() < 0.3 ? `${digits(r, 30, 30)}1` : amount(r, false);
      events.push({ type: 'acquire', asset, quantity: new GainsDecimal(q), cost: new GainsDecimal(cost), ts, day, pool, ref: `buy|${i}|base` });
    } else if (x < 0.85) {
      const proceeds = huge && r() < 0.3 ? `${digits(r, 30, 30)}3` : amount(r, true);
      const costs = r() < 0.3 ? { costs: new GainsDecimal(amount(r, false)) } : {};
      events.push({ type: 'dispose', asset, quantity: new GainsDecimal(q), proceeds: new GainsDecimal(proceeds), ...costs, ts, day, pool, ref: `sell|${i}|base` });
    } else {
      const y = r();
      const from = y < 0.2 ? TRANSIT : pool;
      const to = y >= 0.2 && y < 0.4 ? TRANSIT : wallets[Math.floor(r() * 3)]!;
      events.push({ type: 'move', asset, quantity: new GainsDecimal(q), ts, day, pool: from, toPool: to, ref: `move|${i}|base` });
    }
  }
  return events;
}

// Every column gains.csv writes, plus whether the optional amounts are there at all.
const matchRow = (m: Match) => [m.asset, m.quantity.toFixed(), m.proceeds.toFixed(), m.cost.toFixed(), m.gain.toFixed(), m.basis, m.acquiredDay, m.disposedDay, m.disposedTs,
  m.pool, m.disposalRef, m.acquisitionRef, m.disposalCosts === undefined ? '-' : m.disposalCosts.toFixed(), m.deniedLoss === undefined ? '-' : m.deniedLoss.toFixed()].join(',');
const holdingRow = (h: OpenHolding) => [h.asset, h.pool, h.quantity.toFixed(), h.cost.toFixed(), h.acquiredDay, h.ref].join(',');

/** The whole output of a run as text: matches in order, holdings, or the error that stopped it. */
function outcome(matcher: Matcher, events: GainsEvent[], rules: RuleSetName): string[] {
  const out: string[] = [];
  try {
    for (const e of events) for (const m of matcher.push(e)) out.push(`${matchRow(m)},${ruleSet(rules).classify(m)}`);
    for (const m of matcher.finish()) out.push(`${matchRow(m)},${ruleSet(rules).classify(m)}`);
    for (const h of matcher.holdings()) out.push(`holding,${holdingRow(h)}`);
  } catch (err) {
    out.push(`error: ${(err as Error).message}`);
  }
  return out;
}

const pools = ['universal', 'wallet'] as const;

describe('the scaled-integer matchers give exactly the old decimal.js matchers\' output', () => {
  for (const seed of [1, 2, 3, 4]) {
    const events = stream(seed, 700);
    for (const name of ruleSetNames) {
      for (const p of pools) {
        it(`${name}, pools ${p}, stream ${seed}`, () => {
          const want = outcome(matcherBefore(name, p), events, name);
          const got = outcome(ruleSet(name).matcher(p), events, name);
          expect(want.length).toBeGreaterThan(100);
          expect(got).toEqual(want);
        });
      }
    }
  }

  it('covers the awkward cases it claims to (partial lots, fees, no-cost, negative proceeds, 18+ decimals)', () => {
    const all = [1, 2, 3, 4].flatMap((seed) => outcome(ruleSet('fifo').matcher('wallet'), stream(seed, 700), 'fifo'));
    const fields = all.filter((l) => !l.startsWith('holding')).map((l) => l.split(','));
    expect(fields.some((f) => f[5] === 'no-cost')).toBe(true);
    expect(fields.some((f) => f[12] !== '-')).toBe(true);
    expect(fields.some((f) => f[2]!.startsWith('-'))).toBe(true);
    expect(fields.some((f) => (f[1]!.split('.')[1] ?? '').length >= 18)).toBe(true);
    expect(fields.some((f) => (f[3]!.split('.')[1] ?? '').length === 12)).toBe(true); // a pro-rata share
    expect(fields.some((f) => f[3] === '0' && f[5] !== 'no-cost')).toBe(true);
  });

  it('agrees where sums pass 60 significant digits (decimal.js rounds them; so must the new code)', () => {
    const events = stream(9, 400, true);
    for (const name of ruleSetNames) {
      expect(outcome(ruleSet(name).matcher('wallet'), events, name), name).toEqual(outcome(matcherBefore(name, 'wallet'), events, name));
    }
  });

  it('agrees on US specific identification, and on its errors', () => {
    const events = stream(5, 700);
    const sells = events.filter((e) => e.type === 'dispose' && e.day >= '2025-01-01');
    const buys = events.filter((e) => e.type === 'acquire');
    // Lots named for disposals: some that hold enough, some that do not (an error both must raise alike).
    const lines = ['disposal,lot,quantity'];
    for (let i = 0; i < sells.length; i += 7) {
      const sell = sells[i]!;
      const lot = buys.filter((b) => b.ts < sell.ts && b.pool === sell.pool && b.asset === sell.asset).at(-1);
      const part = new GainsDecimal(sell.quantity).div(3).toDecimalPlaces(8, GainsDecimal.ROUND_DOWN);
      if (lot && !part.isZero()) lines.push(`${sell.ref},${lot.ref},${part.toFixed()}`);
    }
    const file = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    const selections = () => parseLotSelections('lots.csv', file);
    const want = outcome(matcherBefore('us', 'wallet', selections()), events, 'us');
    expect(want.some((l) => l.includes(',specific,'))).toBe(true);
    expect(outcome(ruleSet('us').matcher('wallet', selections()), events, 'us')).toEqual(want);
    // The first selection whose lot cannot give what it names stops both runs with the same error.
    const greedy = file.replace(/,([0-9.]+)$/m, ',1000000');
    const stopped = outcome(matcherBefore('us', 'wallet', parseLotSelections('lots.csv', greedy)), events, 'us');
    expect(stopped.at(-1)).toMatch(/^error: lots\.csv line 2/);
    expect(outcome(ruleSet('us').matcher('wallet', parseLotSelections('lots.csv', greedy)), events, 'us')).toEqual(stopped);
  });
});

describe("the Canada matcher's sums of acquisitions (P of a pending superficial loss)", () => {
  // The matcher adds an asset's acquisitions up once (`cum`) and takes each pending loss's P as a
  // difference of those sums while they are far from the 60 digits where GainsDecimal rounds; past
  // them it goes back to adding one acquisition at a time. Both must give the old matcher's output.
  const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
  const buy = (day: string, q: string, cost: string, ref: string): GainsEvent => ({ type: 'acquire', asset: 'A', quantity: new GainsDecimal(q), cost: new GainsDecimal(cost), ts: at(day), day, pool: 'w1', ref });
  const sell = (day: string, q: string, proceeds: string, ref: string): GainsEvent => ({ type: 'dispose', asset: 'A', quantity: new GainsDecimal(q), proceeds: new GainsDecimal(proceeds), ts: at(day), day, pool: 'w1', ref });

  it('a pending loss whose asset passes the exact range during its period: P = its purchases before and after, summed as before', () => {
    // Sold at a loss on 2025-01-10 with nothing bought in the 30 days before; then 1 bought, and a
    // quantity of 58 decimals (past the exact range) bought; B and P are then both about 2, S 100.
    const events = [
      buy('2024-11-01', '100', '5000', 'b0'),
      sell('2025-01-10', '100', '1000', 's1'),
      buy('2025-01-12', '1', '40', 'b1'),
      buy('2025-01-14', `1.${'0'.repeat(57)}1`, '40', 'b2'),
      buy('2025-01-15', '0.5', '20', 'b3'),
      sell('2025-03-01', '0.1', '1', 's2'),
    ];
    const want = outcome(matcherBefore('ca', 'wallet'), events, 'ca');
    expect(want.some((l) => l.split(',')[13] !== '-' && !l.startsWith('holding'))).toBe(true); // a denied loss
    expect(outcome(ruleSet('ca').matcher('wallet'), events, 'ca')).toEqual(want);
  });

  it('a purchase that a rounded running sum would lose: P from the purchases themselves, as before', () => {
    // 10^30 units held from long before; 1 sold at a loss; then 10^-35 bought. A running sum of
    // 10^30 + 10^-35 rounds at 60 digits to 10^30, so P taken from it would be 0 (no superficial
    // loss); added up from the purchases after the sale, as the old matcher does, P is 10^-35.
    const events = [
      buy('2024-01-01', `1${'0'.repeat(30)}`, `5${'0'.repeat(30)}`, 'b0'),
      sell('2025-01-10', '1', '0', 's1'),
      buy('2025-01-12', `0.${'0'.repeat(34)}1`, '1', 'b1'),
      sell('2025-03-01', '0.5', '1', 's2'),
    ];
    const want = outcome(matcherBefore('ca', 'wallet'), events, 'ca');
    expect(want.find((l) => l.startsWith('A,1,'))!.split(',')[13]).not.toBe('-');
    expect(outcome(ruleSet('ca').matcher('wallet'), events, 'ca')).toEqual(want);
  });

  it('many losses pending at once over many purchases (the case that was quadratic) give the old output', () => {
    const r = rng(11);
    const events: GainsEvent[] = [];
    let ts = Date.UTC(2024, 0, 1, 9);
    for (let i = 0; i < 3000; i++) {
      ts += Math.floor(r() * 4) * 3_600_000 + 1000;
      const day = new Date(ts).toISOString().slice(0, 10);
      const q = digits(r, 2, 8);
      if (new GainsDecimal(q).isZero()) continue;
      events.push(r() < 0.5
        ? { type: 'acquire', asset: 'A', quantity: new GainsDecimal(q), cost: new GainsDecimal(digits(r, 4, 2)), ts, day, pool: 'w1', ref: `b${i}` }
        : { type: 'dispose', asset: 'A', quantity: new GainsDecimal(q), proceeds: new GainsDecimal(digits(r, 3, 2)), ts, day, pool: 'w1', ref: `s${i}` });
    }
    const want = outcome(matcherBefore('ca', 'wallet'), events, 'ca');
    expect(want.filter((l) => !l.startsWith('holding') && l.split(',')[13] !== '-').length).toBeGreaterThan(50);
    expect(outcome(ruleSet('ca').matcher('wallet'), events, 'ca')).toEqual(want);
    // Days that run backwards now and then (not what the engine hands it, but the matcher must
    // not depend on it): the full scan of the pending losses, as before.
    const shuffled = events.map((e, i) => (i % 97 === 0 && i > 0 ? { ...e, day: events[i - 40]!.day } : e));
    expect(outcome(ruleSet('ca').matcher('wallet'), shuffled, 'ca')).toEqual(outcome(matcherBefore('ca', 'wallet'), shuffled, 'ca'));
  });
});
