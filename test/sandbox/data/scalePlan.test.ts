import { openingCoins } from '../../../src/sandbox/data/openingBalances.js';
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { parseScale, ScaleError } from '../../../src/sandbox/data/scalePlan.js';
import { feeNumberText, decimalText } from '../../../src/sandbox/data/decimalText.js';

describe('scale syntax', () => {
  it('reads presets, resource counts and subAccounts, counts overriding the preset', () => {
    const small = parseScale('small');
    expect(parseScale('')).toEqual(small);
    const tiny = parseScale('tiny,transfers=500,subAccounts=5');
    expect(tiny.perAccount.transfers).toBe(500);
    expect(tiny.subAccounts).toBe(5);
    expect(tiny.perAccount.spotOrders).toBe(parseScale('tiny').perAccount.spotOrders);
    const only = parseScale('spotOrders=2000,deposits=10');
    expect(only.perAccount.spotOrders).toBe(2000);
    expect(only.perAccount.spotFills).toBe(0);
    expect(only.demoPerAccount.spotOrders).toBe(0);
  });

  it('rejects bad terms with a message naming the term and the fix', () => {
    expect(() => parseScale('huge')).toThrow(ScaleError);
    expect(() => parseScale('huge')).toThrow(/tiny, small, medium, large or xl/);
    expect(() => parseScale('spotOrders=lots')).toThrow(/whole number/);
    expect(() => parseScale('trades=5')).toThrow(/unknown resource 'trades'/);
    expect(() => parseScale('subAccounts=21')).toThrow(/at most 20/);
  });

  it('builds a world with exactly the explicit counts per account', () => {
    const w = createWorld({ seed: 1, scale: 'spotOrders=1000,futuresOrders=300', now: 1_800_000_000_000 });
    const main = w.accounts[0]!;
    expect(w.series(main.uid, 'spotOrders', 'all').size).toBe(1000);
    expect(w.series(main.uid, 'futuresOrders', 'USDT-FUTURES').size).toBe(100);
    // Only the opening deposits (one per coin at the world's first day: openingBalances.ts).
    expect(w.series(main.uid, 'deposits', 'all').size).toBe(openingCoins.length);
    const demo = w.accounts.find((a) => a.demo)!;
    expect(w.series(demo.uid, 'futuresOrders', 'SCOIN-FUTURES').size).toBe(100);
  });

  it('large presets draw about a million history records, less the spot bills\' share (derived on top)', () => {
    const plan = parseScale('large');
    expect(plan.perAccount.spotBills).toBe(0);
    const perAccount = Object.values(plan.perAccount).reduce((a, b) => a + b, 0);
    const demo = Object.values(plan.demoPerAccount).reduce((a, b) => a + b, 0);
    const total = perAccount * (plan.subAccounts + 2) + demo;
    // Spot bills (weight 12 of 100) are derived from the spot movements, not drawn.
    expect(total).toBeGreaterThan(870_000);
    expect(total).toBeLessThan(910_000);
    expect(() => parseScale('spotBills=10')).toThrow(/derived from the spot movements/);
  });
});

describe('number text', () => {
  it('writes mantissas exactly and tiny fees in exponent notation', () => {
    expect(decimalText(12345n, 2)).toBe('123.45');
    expect(decimalText(-5, 3)).toBe('-0.005');
    expect(decimalText(7, 0)).toBe('7');
    expect(feeNumberText('-0.000000089')).toBe('-8.9E-8');
    expect(feeNumberText('-0.00000100')).toBe('-0.000001');
    expect(feeNumberText('0.0000')).toBe('0');
    expect(feeNumberText('12.50')).toBe('12.5');
    expect(feeNumberText('100')).toBe('100');
  });
});
