import { describe, expect, it } from 'vitest';
import { rng } from '../support/seededRandom.js';
import { GainsDecimal, ZERO } from '../../src/gains/gainsDecimal.js';
import type { GainsEvent, Matcher } from '../../src/gains/gainsEvent.js';
import { ruleSet, ruleSetNames } from '../../src/gains/ruleSets.js';
import { buy, move, run, sell } from './events.js';


/** A decimal string with up to `places` decimals, from integer arithmetic (no float formatting). */
const decimal = (r: () => number, max: number, places: number) => {
  const scaled = 1 + Math.floor(r() * max * 10 ** places);
  return new GainsDecimal(scaled).div(10 ** places).toFixed();
};

/**
 * Four years of trading (2022 to 2025, across the US switch to wallets) in three wallets and two
 * coins: buys and sells at awkward prices (up to 8 decimals), own-account moves, sales beyond what
 * is held, many on the same day (the UK same-day rule) and within 30 days (UK 30-day, Canada's
 * superficial losses).
 */
function history(seed: number): GainsEvent[] {
  const r = rng(seed);
  const events: GainsEvent[] = [];
  const wallets = ['w1', 'w2', 'w3'];
  let day = Date.UTC(2022, 0, 3);
  for (let i = 0; i < 400; i++) {
    day += Math.floor(r() * 5) * 86_400_000; // often the same day
    const d = new Date(day).toISOString().slice(0, 10);
    const asset = r() < 0.6 ? 'A' : 'B';
    const wallet = wallets[Math.floor(r() * 3)]!;
    const x = r();
    if (x < 0.5) events.push(buy(d, asset, decimal(r, 5, 8), decimal(r, 10_000, 8), wallet));
    else if (x < 0.85) events.push(sell(d, asset, decimal(r, 4, 8), decimal(r, 10_000, 8), wallet));
    else events.push(move(d, asset, decimal(r, 2, 8), wallet, wallets[Math.floor(r() * 3)]!));
  }
  return events;
}

/** Σ proceeds - Σ gain + cost still held, and Σ paid, over every match of a run. */
function account(matcher: Matcher, events: GainsEvent[]) {
  const matches = run(matcher, events);
  const paid = events.reduce((s, e) => (e.type === 'acquire' ? s.plus(e.cost) : s), ZERO);
  const proceeds = matches.reduce((s, m) => s.plus(m.proceeds), ZERO);
  const gain = matches.reduce((s, m) => s.plus(m.gain), ZERO);
  const held = matcher.holdings().reduce((s, h) => s.plus(h.cost), ZERO);
  const received = events.reduce((s, e) => (e.type === 'dispose' ? s.plus(e.proceeds) : s), ZERO);
  return { paid: paid.toFixed(), balance: proceeds.minus(gain).plus(held).toFixed(), proceeds: proceeds.toFixed(), received: received.toFixed() };
}

describe('sums exact by construction: proceeds - gain + cost still held = what was paid, to the last digit', () => {
  it('the issue\'s case under every rule set: buy 3 for 1, sell 1 for 100', () => {
    for (const rules of ruleSetNames) {
      const r = account(ruleSet(rules).matcher('universal'), [buy('2024-01-02', 'X', '3', '1'), sell('2024-03-01', 'X', '1', '100')]);
      expect([rules, r.balance]).toEqual([rules, '1']);
    }
  });

  for (const rules of ruleSetNames) {
    for (const pools of ['universal', 'wallet'] as const) {
      it(`${rules}, pools ${pools}: generated four-year histories (seeds 1-5)`, () => {
        for (let seed = 1; seed <= 5; seed++) {
          const events = history(seed * 7919 + rules.length);
          const r = account(ruleSet(rules).matcher(pools), events);
          expect({ rules, seed, balance: r.balance, proceeds: r.proceeds }).toEqual({ rules, seed, balance: r.paid, proceeds: r.received });
        }
      });
    }
  }
});
