import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { abs, div, fixed, mul, mulShift, roundTo, scaled, sub } from '../../../src/sandbox/data/scaledDecimal.js';
import { recordRng, type Rng } from '../../../src/sandbox/data/rng.js';
import { feeNumberText } from '../../../src/sandbox/data/decimalText.js';

// scaledDecimal stands in for decimal.js in the generators, so it must agree with decimal.js on
// every input, not only on the generators' usual ones: random texts of every length (past 20
// digits, where decimal.js rounds to its precision), scale, sign, and values ending in 5 (ties).

function randomText(rng: Rng): string {
  const intDigits = rng.int(4) === 0 ? 0 : rng.range(1, rng.chance(0.2) ? 26 : 8);
  const fracDigits = rng.int(4) === 0 ? 0 : rng.range(1, rng.chance(0.2) ? 26 : 12);
  let int = '';
  for (let i = 0; i < intDigits; i++) int += String(rng.int(10));
  let frac = '';
  for (let i = 0; i < fracDigits; i++) frac += String(rng.int(10));
  if (rng.chance(0.3) && frac.length > 0) frac = `${frac.slice(0, -1)}5`;
  if (rng.chance(0.1) && frac.length > 0) frac = `${frac}000`;
  const text = `${int === '' ? '0' : int}${frac === '' ? '' : `.${frac}`}`;
  return rng.chance(0.4) ? `-${text}` : text;
}

const cases = 20_000;

describe('scaledDecimal agrees with decimal.js', () => {
  it('reads texts as the Decimal constructor does (toFixed, plain and exponent notation)', () => {
    const rng = recordRng(1, 0);
    for (let i = 0; i < cases; i++) {
      const a = randomText(rng);
      expect(fixed(scaled(a)), a).toBe(new Decimal(a).toFixed());
    }
    for (const a of ['-8.9E-8', '1e3', '+2.5', '-0', '0.000', '1.23e-12', '-4.5E+3']) expect(fixed(scaled(a)), a).toBe(new Decimal(a).toFixed());
    expect(() => scaled('abc')).toThrow();
  });

  it('multiplies, rounds to places half-up and writes fixed places (mulText)', () => {
    const rng = recordRng(2, 0);
    for (let i = 0; i < cases; i++) {
      const a = randomText(rng);
      const b = randomText(rng);
      const places = rng.int(14);
      const want = new Decimal(a).mul(b).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);
      expect(fixed(roundTo(mul(scaled(a), scaled(b)), places), places), `${a} * ${b} @${places}`).toBe(want);
      const plain = new Decimal(a).mul(b).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed();
      expect(fixed(roundTo(mul(scaled(a), scaled(b)), places)), `${a} * ${b} @${places} plain`).toBe(plain);
    }
  });

  it('divides (correctly rounded to 20 digits), then rounds half-up or down', () => {
    const rng = recordRng(3, 0);
    for (let i = 0; i < cases; i++) {
      const a = randomText(rng);
      let b = randomText(rng);
      if (new Decimal(b).isZero()) b = '7';
      const places = rng.int(14);
      const q = new Decimal(a).abs().div(b);
      expect(fixed(roundTo(div(abs(scaled(a)), scaled(b)), places)), `|${a}| / ${b} @${places}`).toBe(q.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed());
      expect(fixed(roundTo(div(scaled(a), scaled(b)), places, true), places), `${a} / ${b} @${places} down`)
        .toBe(new Decimal(a).div(b).toDecimalPlaces(places, Decimal.ROUND_DOWN).toFixed(places));
      expect(fixed(div(scaled(a), scaled(b))), `${a} / ${b}`).toBe(new Decimal(a).div(b).toFixed());
      // spotFeeDetail halves by multiplying with 0.5.
      expect(fixed(roundTo(mul(scaled(a), { m: 5n, s: 1 }), 12)), `${a} / 2`).toBe(new Decimal(a).div(2).toDecimalPlaces(12).toFixed());
    }
  });

  it('multiplies by an integer and shifts (part)', () => {
    const rng = recordRng(6, 0);
    for (let i = 0; i < cases; i++) {
      const a = randomText(rng);
      const k = rng.range(0, 1000);
      const places = rng.int(10);
      expect(fixed(roundTo(mulShift(scaled(a), k, 3), places, true), places), `${a} * ${k} / 1000`)
        .toBe(new Decimal(a).mul(k).div(1000).toDecimalPlaces(places, Decimal.ROUND_DOWN).toFixed(places));
    }
  });

  it('subtracts', () => {
    const rng = recordRng(4, 0);
    for (let i = 0; i < cases; i++) {
      const a = randomText(rng);
      const b = randomText(rng);
      expect(fixed(sub(scaled(a), scaled(b))), `${a} - ${b}`).toBe(new Decimal(a).minus(b).toFixed());
    }
  });
});

describe('feeNumberText (its fast path skips the regular expressions)', () => {
  // The rules as they were, all regular expressions, for comparison.
  const reference = (value: string): string => {
    if (/^-?0*(\.0*)?$/.test(value)) return '0';
    if (/^-?0\.000000/.test(value)) return new Decimal(value).toExponential().replace('e', 'E').replace('E+', 'E');
    return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
  };

  it('writes every number as the plain rules do', () => {
    const rng = recordRng(5, 0);
    const odd = ['0', '-0', '', '-', '.', '0.', '.0', '100', '-100.', '1.', '0.0000001', '-0.00000008900', '10.50', '-0.5', '7'];
    for (const v of odd) expect(feeNumberText(v), v).toBe(reference(v));
    for (let i = 0; i < cases; i++) {
      const v = randomText(rng);
      expect(feeNumberText(v), v).toBe(reference(v));
    }
  });
});
