import { describe, expect, it } from 'vitest';
import { rng } from '../support/seededRandom.js';
import { GainsDecimal, proRata as decimalProRata, sumOf } from '../../src/gains/gainsDecimal.js';
import { add, cmp, decimalOfText, divide, fromDecimal, isZero, negate, proRata, Scaled, sub, sum, toDecimal } from '../../src/gains/scaledDecimal.js';


/** A decimal string of random digits: short and long, tiny and huge, with trailing zeros and signs. */
function decimalText(r: () => number, signed: boolean): string {
  const shape = r();
  const intDigits = shape < 0.3 ? 0 : Math.floor(r() * (shape < 0.9 ? 8 : 40));
  const fracDigits = Math.floor(r() * (r() < 0.8 ? 14 : 45));
  const digit = () => String(Math.floor(r() * 10));
  let int = '';
  for (let i = 0; i < intDigits; i++) int += digit();
  let frac = '';
  for (let i = 0; i < fracDigits; i++) frac += r() < 0.2 ? '0' : r() < 0.1 ? '9' : digit();
  let text = `${int || '0'}${frac ? `.${frac}` : ''}`;
  if (/^0(\.0*)?$/.test(text)) text = r() < 0.5 ? '0' : '0.000001';
  return signed && r() < 0.3 ? `-${text}` : text;
}

// Everything that can tell two decimals apart: the layout (d, e, s) and the text gains.csv gets.
// The one exception: the sign of a zero (decimal.js has -0, e.g. -0 x 3), which no text shows
// (toFixed gives '0') and the engine does not keep.
const same = (got: GainsDecimal, want: GainsDecimal, what: string) => {
  const sign = (x: GainsDecimal) => (x.d[0] === 0 ? 0 : x.s);
  // The layout before any decimal.js method: a malformed value can keep one from finishing.
  expect([sign(got), got.e, got.d], what).toEqual([sign(want), want.e, want.d]);
  expect([got.toFixed(), got.toFixed(2)], what).toEqual([want.toFixed(), want.toFixed(2)]);
};
const S = (text: string) => fromDecimal(new GainsDecimal(text));
const MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** The decimal text of m x 10^-k. */
const textOf = (m: bigint, k: number) => {
  const digits = (m < 0n ? -m : m).toString().padStart(k + 1, '0');
  return `${m < 0n ? '-' : ''}${digits.slice(0, digits.length - k)}${k > 0 ? `.${digits.slice(digits.length - k)}` : ''}`;
};
/** A result is a number exactly when its m is a safe integer (so zero is the number 0). */
const canonical = (v: Scaled, what: string) => {
  const m = typeof v.m === 'number' ? BigInt(v.m) : v.m;
  expect(typeof v.m, what).toBe(m <= MAX && m >= -MAX ? 'number' : 'bigint');
  if (typeof v.m === 'number') expect(Number.isSafeInteger(v.m), what).toBe(true);
};
const fresh = (v: Scaled) => toDecimal(new Scaled(v.m, v.k));

describe('scaledDecimal: the engine\'s scaled integers give exactly GainsDecimal\'s results', () => {
  it('converts both ways to the same decimal.js layout', () => {
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const want = new GainsDecimal(decimalText(r, true));
      same(fresh(fromDecimal(want)), want, want.toFixed());
      // And from computed decimals, whose layout decimal.js made itself.
      const computed = want.div(7).times(3);
      same(fresh(fromDecimal(computed)), computed, computed.toFixed());
    }
    same(fresh(S('1e25')), new GainsDecimal('1e25'), '1e25');
    same(fresh(S('1.5e-30')), new GainsDecimal('1.5e-30'), '1.5e-30');
  });

  it('builds any scaled integer as decimal.js reads its text', () => {
    const r = rng(15);
    for (let i = 0; i < 5000; i++) {
      let m = '';
      const len = 1 + Math.floor(r() * (r() < 0.7 ? 16 : 40));
      for (let j = 0; j < len; j++) m += r() < 0.25 ? '0' : String(Math.floor(r() * 10));
      const k = Math.floor(r() * 31);
      const big = BigInt(m) * (r() < 0.3 ? -1n : 1n);
      const text = textOf(big, k);
      same(toDecimal(new Scaled(big, k)), new GainsDecimal(text), `${big} x 10^-${k}`);
      // The same value held as a number, as the engine holds every safe integer.
      if (big <= MAX && big >= -MAX) same(toDecimal(new Scaled(Number(big), k)), new GainsDecimal(text), `${big} x 10^-${k} as a number`);
    }
    // Whole words of zeros at either end: dropped at the end, counted into the exponent in front.
    for (const [m, k, text] of [[10_000_000n, 0, '10000000'], [500_000_000_000_000n, 0, '500000000000000'], [100_000_000_000_000n, 2, '1000000000000'],
      [12n, 20, '0.00000000000000000012'], [10_000_000n, 22, '0.000000000000001'], [3n, 15, '0.000000000000003']] as const) {
      same(toDecimal(new Scaled(m, k)), new GainsDecimal(text), text);
    }
  });

  it('adds, subtracts and compares as decimal.js does, 60-digit rounding included', () => {
    const r = rng(12);
    const extra = ['999999999999999999999999999999.999999999999999999999999999999', '0.000000000000000000000000000000000000000001', '123456789012345678901234567890123456789012345678901234567890123', '5e-45', '-1e30'];
    for (let i = 0; i < 4000; i++) {
      const a = i % 50 === 0 ? extra[(i / 50) % extra.length]! : decimalText(r, true);
      const b = decimalText(r, true);
      const x = new GainsDecimal(a);
      const y = new GainsDecimal(b);
      same(toDecimal(add(S(a), S(b))), x.plus(y), `${a} + ${b}`);
      same(fresh(add(S(a), S(b))), x.plus(y), `${a} + ${b}`);
      same(fresh(sub(S(a), S(b))), x.minus(y), `${a} - ${b}`);
      same(fresh(sub(S(a), S(a))), x.minus(x), `${a} - itself`);
      same(fresh(add(S(a), S('0'))), x.plus(0), `${a} + 0`);
      expect(cmp(S(a), S(b)), `${a} cmp ${b}`).toBe(x.cmp(y));
    }
  });

  it('shares pro rata and divides with decimal.js\'s roundings, halves and near-halves included', () => {
    const r = rng(13);
    const check = (t: string, p: string, w: string) => {
      if (new GainsDecimal(w).isZero()) return; // never a whole in the engine
      same(fresh(proRata(S(t), S(p), S(w))), decimalProRata(new GainsDecimal(t), new GainsDecimal(p), new GainsDecimal(w)), `proRata(${t}, ${p}, ${w})`);
      same(fresh(divide(S(t), S(w))), new GainsDecimal(t).div(new GainsDecimal(w)), `${t} / ${w}`);
    };
    for (let i = 0; i < 4000; i++) check(decimalText(r, true), decimalText(r, false), decimalText(r, false));
    // Exact halves at 12 places (both directions of half to even), thirds, and a quotient whose
    // 60-digit rounding lands on a half at 12 places (the double rounding decimal.js does).
    check('1', '0.0000000000005', '1');
    check('1', '0.0000000000015', '1');
    check('-1', '0.0000000000025', '1');
    check('1', '1', '3');
    check('2', '1', '3');
    check('6280', '700', '1500');
    const nearHalf = `0.0000000000004${'9'.repeat(46)}`;
    check('1', nearHalf, '1');
    check('1', `0.0000000000004${'9'.repeat(40)}`, '1');
    check('99999999999999999999999999999999999999999999999999', '3', '7');
    check('123456789012345678901234567890123', '98765432109876543210987654321', '7');
    check('0', '1', '3');
    // (4.5e-12 - 1e-71) / 3 = 1.4999…9666…e-12: to 60 digits 1.5e-12, then half to even at 12
    // places 2e-12, where one rounding would give 1e-12. decimal.js rounds twice; so must we.
    const twice = `0.${'0'.repeat(11)}4${'9'.repeat(59)}`;
    check(twice, '1', '3');
    expect(toDecimal(proRata(S(twice), S('1'), S('3'))).toFixed()).toBe('0.000000000002');
  });

  it('sums as sumOf does', () => {
    const r = rng(14);
    for (let i = 0; i < 300; i++) {
      const texts = Array.from({ length: 1 + Math.floor(r() * 20) }, () => decimalText(r, true));
      same(fresh(sum(texts.map(S))), sumOf(texts.map((t) => new GainsDecimal(t))), texts.join(' + '));
    }
    same(fresh(sum([])), sumOf([]), 'empty');
  });
  it('crosses 2^53 exactly: numbers where they are safe integers, BigInts past them, the same results', () => {
    // Values of m around 2^53 - 1 (the largest safe integer), at 0 to 30 places, of either sign,
    // beside zero, small values and values with many places; every pair through every operation.
    const texts: string[] = ['0', '1', '-1', '0.2', '1.2', '10.569999999999999', '0.000000000001', `0.${'0'.repeat(29)}1`, '12345678901234567890.12345678901234567890'];
    for (const k of [0, 1, 8, 12, 15, 18, 22, 30]) {
      for (const delta of [-2n, -1n, 0n, 1n, 2n, 3n]) {
        const m = MAX + delta;
        texts.push(textOf(m, k), textOf(-m, k));
      }
      // Halves of 2^53 and products near it: sums of two safe values that cross it.
      texts.push(textOf(MAX / 2n + 1n, k), textOf(94906265n, k), textOf(94906267n, k));
    }
    for (const t of texts) {
      const v = S(t);
      canonical(v, `fromDecimal(${t})`);
      same(fresh(v), new GainsDecimal(t), t);
      same(fresh(negate(v)), new GainsDecimal(t).neg(), `-(${t})`);
      expect(isZero(v), t).toBe(new GainsDecimal(t).isZero());
    }
    for (const a of texts) {
      for (const b of texts) {
        const x = new GainsDecimal(a);
        const y = new GainsDecimal(b);
        const s1 = add(S(a), S(b));
        const s2 = sub(S(a), S(b));
        canonical(s1, `${a} + ${b}`);
        canonical(s2, `${a} - ${b}`);
        same(fresh(s1), x.plus(y), `${a} + ${b}`);
        same(fresh(s2), x.minus(y), `${a} - ${b}`);
        expect(cmp(S(a), S(b)), `${a} cmp ${b}`).toBe(x.cmp(y));
        same(fresh(sum([S(a), S(b), S(a)])), sumOf([x, y, x]), `${a} + ${b} + ${a}`);
        if (!y.isZero()) {
          const share = proRata(S(a), S(b), S(b === a ? '3' : a === '0' ? '7' : a));
          canonical(share, `proRata(${a}, ${b})`);
          same(fresh(share), decimalProRata(x, y, new GainsDecimal(b === a ? '3' : a === '0' ? '7' : a)), `proRata(${a}, ${b}, …)`);
          same(fresh(proRata(S(a), S('0.8'), S(b))), decimalProRata(x, new GainsDecimal('0.8'), y), `proRata(${a}, 0.8, ${b})`);
          same(fresh(divide(S(a), S(b))), x.div(y), `${a} / ${b}`);
        }
      }
    }
  });

  it('keeps a pro-rata share exact where the product of two safe integers is past 2^53', () => {
    // 94906267^2 is just past 2^53: the share must come from the BigInts, not a rounded double.
    const r = rng(16);
    for (let i = 0; i < 2000; i++) {
      const m = 94_906_200 + Math.floor(r() * 200);
      const t = textOf(BigInt(m) * (r() < 0.3 ? -1n : 1n), Math.floor(r() * 14));
      const p = textOf(BigInt(m + Math.floor(r() * 5)), Math.floor(r() * 14));
      const w = textOf(BigInt(1 + Math.floor(r() * 1e15)), Math.floor(r() * 16));
      same(fresh(proRata(S(t), S(p), S(w))), decimalProRata(new GainsDecimal(t), new GainsDecimal(p), new GainsDecimal(w)), `proRata(${t}, ${p}, ${w})`);
    }
  });
});

describe('decimalOfText: a numeric text as decimal.js reads it, without its parse', () => {
  // What decimal.js's own parse gives, sign of zero included (`new Decimal('-0')` keeps s = -1).
  const exactly = (got: GainsDecimal, want: GainsDecimal, what: string) => {
    expect([got.s, got.e, got.d, Object.keys(got)], what).toEqual([want.s, want.e, want.d, Object.keys(want)]);
    expect(got instanceof GainsDecimal, what).toBe(true);
    expect([got.toFixed(), got.plus(1).toFixed(), got.times('0.5').toFixed()], what).toEqual([want.toFixed(), want.plus(1).toFixed(), want.times('0.5').toFixed()]);
  };

  it('equals new GainsDecimal(text) and its abs() on 20,000 texts: every word boundary, leading and trailing zeros, signs', () => {
    const r = rng(24_19);
    const texts = ['0', '-0', '0.0', '-0.000', '.5', '5.', '-.5', '00012.3400', '-0012.3400', '1234567', '12345678', '0.0000001', '0.00000001',
      '9999999.9999999', '10000000', '0.1234567', '1234567.1234567', '100', '-100.000', '0.000000000000000000123'];
    for (let i = 0; i < 20_000; i++) {
      const t = decimalText(r, true);
      // Leading zeros and a bare point, as PostgreSQL never writes them but a file might.
      texts.push(r() < 0.1 ? `00${t.replace('-', '')}` : r() < 0.05 ? `${t}${t.includes('.') ? '' : '.'}` : t);
    }
    for (const t of texts) {
      exactly(decimalOfText(t), new GainsDecimal(t), t);
      exactly(decimalOfText(t, true), new GainsDecimal(t).abs(), `abs ${t}`);
    }
  });

  it('leaves any other text to decimal.js, which reads it or refuses it as before', () => {
    for (const t of ['1e5', '-1.5E-3', '+7', '0x1f']) {
      expect(decimalOfText(t).toFixed(), t).toBe(new GainsDecimal(t).toFixed());
      expect(decimalOfText(t, true).toFixed(), t).toBe(new GainsDecimal(t).abs().toFixed());
    }
    for (const t of ['', '-', '.', '1.2.3', '--1', '1-', 'abc', '1,5', ' 1']) {
      expect(() => decimalOfText(t), t).toThrow();
      expect(() => new GainsDecimal(t), t).toThrow();
    }
  });
});
