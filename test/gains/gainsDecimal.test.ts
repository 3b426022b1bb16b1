import { describe, expect, it } from 'vitest';
import { GainsDecimal, sumOf } from '../../src/gains/gainsDecimal.js';

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
