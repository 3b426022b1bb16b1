import { Decimal } from 'decimal.js';

/**
 * Decimal arithmetic on BigInt mantissas that gives exactly what decimal.js (default settings)
 * gives, for the generators' hot paths: a record needs a handful of products and quotients, and
 * decimal.js's parsing and digit arrays cost more than the rest of the record. The rules copied:
 * every operation's result is rounded to 20 significant digits, half-up (decimal.js's
 * `precision` and `rounding`); the constructor, `abs`, `neg` and `toDecimalPlaces` do not round
 * to precision; `toFixed()` writes plain notation without trailing zeros and never `-0`.
 * test/sandbox/data/scaledDecimal.test.ts compares it with decimal.js.
 *
 * @example
 * fixed(roundTo(mul(scaled('0.012345'), scaled('70123.45')), 8), 8); // '865.67399025'
 */
export interface Scaled {
  /** The value is m / 10^s; s may be negative after rounding a large integer. */
  readonly m: bigint;
  readonly s: number;
}

const plainText = /^-?\d+(?:\.\d+)?$/;
const powers: bigint[] = [];
for (let i = 0, p = 1n; i <= 40; i++, p *= 10n) powers.push(p);
const pow10 = (n: number): bigint => powers[n] ?? 10n ** BigInt(n);
/** decimal.js's default `precision`. */
const precision = 20;
const precisionLimit = pow10(precision);

/**
 * Reads a decimal text; anything but plain notation (an exponent, a `+`) goes through decimal.js,
 * so it reads what `new Decimal(text)` reads and throws where it throws.
 *
 * @example
 * scaled('-1.50'); // { m: -150n, s: 2 }
 */
export function scaled(text: string): Scaled {
  // The usual text (plain, at most 15 digits) is read into a double, which holds it exactly,
  // without a regular expression or a BigInt parse.
  const n = text.length;
  let i = 0;
  let neg = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let v = 0;
  let digits = 0;
  let s = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      if (s >= 0) s++;
    } else if (c === 46 && s < 0 && digits > 0) {
      s = 0;
    } else {
      return scaledSlowly(text);
    }
  }
  if (digits === 0 || digits > 15 || s === 0) return scaledSlowly(text);
  const m = BigInt(v);
  return { m: neg ? -m : m, s: s < 0 ? 0 : s };
}

function scaledSlowly(text: string): Scaled {
  let t = text;
  if (!plainText.test(t)) {
    t = new Decimal(text).toFixed();
    if (!plainText.test(t)) throw new RangeError(`not a finite decimal: ${text}`);
  }
  const dot = t.indexOf('.');
  return dot < 0 ? { m: BigInt(t), s: 0 } : { m: BigInt(t.slice(0, dot) + t.slice(dot + 1)), s: t.length - dot - 1 };
}

/** The number of decimal digits of a > 0. */
function digitCount(a: bigint): number {
  // A double's log10 is off by at most one near a power of ten; the table settles it.
  let d = Math.floor(Math.log10(Number(a))) + 1;
  if (d < 1) d = 1;
  if (a >= pow10(d)) d++;
  else if (d > 1 && a < pow10(d - 1)) d--;
  return d;
}

/** Drops the last `d` (>= 1) digits of a >= 0, rounding half-up. */
function dropHalfUp(a: bigint, d: number): bigint {
  const p = pow10(d);
  const q = a / p;
  return 2n * (a - q * p) >= p ? q + 1n : q;
}

function toPrecision(m: bigint, s: number): Scaled {
  const neg = m < 0n;
  const a = neg ? -m : m;
  if (a < precisionLimit) return { m, s };
  const d = digitCount(a) - precision;
  const r = dropHalfUp(a, d);
  return { m: neg ? -r : r, s: s - d };
}

/**
 * x * k / 10^shift for an integer k, as decimal.js's `times(k).div(10^shift)`: the division by a
 * power of ten is exact, so only the product is rounded to precision.
 *
 * @example
 * mulShift(scaled('1.5'), 500, 3); // 0.75
 */
export function mulShift(x: Scaled, k: number, shift: number): Scaled {
  return toPrecision(x.m * BigInt(k), x.s + shift);
}

/**
 * x * y, as decimal.js's `times`.
 *
 * @example
 * mul(scaled('1.5'), scaled('2')); // 3.0
 */
export function mul(x: Scaled, y: Scaled): Scaled {
  return toPrecision(x.m * y.m, x.s + y.s);
}

/**
 * x - y, as decimal.js's `minus`.
 *
 * @example
 * sub(scaled('1'), scaled('0.25')); // 0.75
 */
export function sub(x: Scaled, y: Scaled): Scaled {
  const s = Math.max(x.s, y.s);
  return toPrecision(x.m * pow10(s - x.s) - y.m * pow10(s - y.s), s);
}

/**
 * x / y, as decimal.js's `dividedBy`: the quotient correctly rounded to 20 significant digits.
 *
 * @example
 * div(scaled('1'), scaled('3')); // 0.33333333333333333333
 */
export function div(x: Scaled, y: Scaled): Scaled {
  if (y.m === 0n) throw new RangeError('division by zero');
  if (x.m === 0n) return { m: 0n, s: 0 };
  const neg = (x.m < 0n) !== (y.m < 0n);
  const n = x.m < 0n ? -x.m : x.m;
  const d = y.m < 0n ? -y.m : y.m;
  // n * 10^k / d then has 20 or 21 digits before the point; one step less when 21.
  let k = precision - digitCount(n) + digitCount(d);
  for (;;) {
    const num = k >= 0 ? n * pow10(k) : n;
    const den = k >= 0 ? d : d * pow10(-k);
    const q = num / den;
    if (q >= precisionLimit) {
      k--;
      continue;
    }
    const m = 2n * (num - q * den) >= den ? q + 1n : q;
    return { m: neg ? -m : m, s: k + x.s - y.s };
  }
}

/**
 * |x|.
 *
 * @example
 * abs(scaled('-2')); // 2
 */
export function abs(x: Scaled): Scaled {
  return x.m < 0n ? { m: -x.m, s: x.s } : x;
}

/**
 * x rounded to `places` decimals, half-up or down (toward zero), as `toDecimalPlaces`; the
 * result has scale `places` exactly.
 *
 * @example
 * roundTo(scaled('2.345'), 2);       // 2.35
 * roundTo(scaled('2.345'), 2, true); // 2.34
 */
export function roundTo(x: Scaled, places: number, down = false): Scaled {
  if (x.s <= places) return { m: x.m * pow10(places - x.s), s: places };
  const neg = x.m < 0n;
  const a = neg ? -x.m : x.m;
  const d = x.s - places;
  const r = down ? a / pow10(d) : dropHalfUp(a, d);
  return { m: neg ? -r : r, s: places };
}

/**
 * The text of x: with exactly `places` decimals (x must have scale <= places, e.g. from
 * roundTo), or, without `places`, as decimal.js's `toFixed()` (no trailing zeros). Never `-0`.
 *
 * @example
 * fixed(scaled('1.50'));    // '1.5'
 * fixed(scaled('1.50'), 3); // '1.500'
 */
export function fixed(x: Scaled, places?: number): string {
  let { m, s } = x;
  if (s < 0) {
    m *= pow10(-s);
    s = 0;
  }
  if (places !== undefined && s < places) {
    m *= pow10(places - s);
    s = places;
  }
  const neg = m < 0n;
  const digits = (neg ? -m : m).toString();
  let text = digits;
  if (s > 0) {
    const padded = digits.length > s ? digits : '0'.repeat(s + 1 - digits.length) + digits;
    text = `${padded.slice(0, -s)}.${padded.slice(-s)}`;
    if (places === undefined) {
      let end = text.length;
      while (text.charCodeAt(end - 1) === 48) end--;
      if (text.charCodeAt(end - 1) === 46) end--;
      text = text.slice(0, end);
    }
  }
  return neg ? `-${text}` : text;
}
