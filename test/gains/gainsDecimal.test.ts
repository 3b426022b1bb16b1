import { describe, expect, it } from 'vitest';
import { GainsDecimal, sumOf } from '../../src/gains/gainsDecimal.js';
import { plusZero } from '../../src/gains/ledgerEvents.js';

describe('sumOf: a day\'s total in one go', () => {
  it('equals adding one by one, across the chunk size, with signs and many decimals', () => {
    const values = Array.from({ length: 10_001 }, (_, i) => new GainsDecimal(`${i % 7 === 0 ? '-' : ''}${i}.${String(i * 7919).padStart(18, '0')}`));
    const oneByOne = values.reduce((s, v) => s.plus(v), new GainsDecimal(0));
    expect(sumOf(values).toFixed()).toBe(oneByOne.toFixed());
    expect(sumOf(values.slice(0, 3)).toFixed()).toBe('3.000000000000023757');
  });

  it('an empty day sums to 0 and a single value is itself', () => {
    expect(sumOf([]).toFixed()).toBe('0');
    const one = new GainsDecimal('0.1');
    expect(sumOf([one])).toBe(one);
  });
});

describe('plusZero: x + 0 without the addition when it changes nothing', () => {
  it('is x.plus(0) exactly, up to and past the 60 significant digits decimal.js rounds a sum to', () => {
    for (const digits of [1, 7, 14, 55, 56, 57, 60, 61, 63, 80]) {
      for (const point of [0, 1, Math.floor(digits / 2), digits - 1]) {
        const text = Array.from({ length: digits }, (_, i) => String((i * 7 + 3) % 10 || 1)).join('');
        const x = new GainsDecimal(point === 0 ? text : `${text.slice(0, point)}.${text.slice(point)}`);
        const want = x.plus(0);
        const got = plusZero(x);
        expect(got.toFixed(), `${digits} digits, point at ${point}`).toBe(want.toFixed());
        expect(got.sd()).toBe(want.sd());
      }
    }
    // Past 60 significant digits the sum rounds, so plusZero must too.
    const long = new GainsDecimal(`1.${'3'.repeat(70)}`);
    expect(plusZero(long).toFixed()).toBe(`1.${'3'.repeat(59)}`);
    expect(plusZero(new GainsDecimal(0)).toFixed()).toBe('0');
  });
});
