import { GainsDecimal, proRata as decimalProRata, SHARE_DECIMALS, sumOf } from './gainsDecimal.js';

/**
 * The gains engine's fast exact decimal: a value is `m x 10^-k` (`m` a BigInt, `k` >= 0 decimal
 * places). The matchers compute in it and turn values into {@link GainsDecimal} only where a
 * match, a holding or an error message hands them out, so every figure is exactly the one
 * decimal.js computed before (issue 24 item 5: decimal.js was most of the engine's time).
 *
 * Identity with GainsDecimal (60 significant digits, half to even), operation by operation:
 *  - sums, differences and comparisons are exact here; decimal.js rounds a sum only when it has
 *    more than 60 significant digits, so when |m| reaches 10^60 the operation is done by
 *    decimal.js itself (never seen with exchange amounts, kept for identity);
 *  - {@link proRata} rounds as gainsDecimal.proRata does: the product to 60 significant digits
 *    (done by decimal.js when it has more), the quotient to 60 significant digits, then to
 *    SHARE_DECIMALS places, each half to even;
 *  - {@link divide} is decimal.js's `div` (60 significant digits), for HIFO's unit costs, so ties
 *    are the same ties.
 * test/gains/scaledDecimal.test.ts checks each against decimal.js on awkward values, and
 * test/gains/matcherIdentity.test.ts whole runs against the matchers as they were.
 *
 * `dec` remembers the GainsDecimal a value came from or was turned into, so an amount that passes
 * through unchanged (a whole lot's cost, a disposal's proceeds) is handed out as the very object
 * that came in.
 */
export class Scaled {
  constructor(readonly m: bigint, readonly k: number, public dec: GainsDecimal | undefined = undefined) {}
}

const PRECISION = 60;
const POW: bigint[] = [1n];
for (let i = 1; i <= 160; i++) POW.push(POW[i - 1]! * 10n);
/** 10^n as a BigInt. */
const pow10 = (n: number): bigint => (n < POW.length ? POW[n]! : 10n ** BigInt(n));
const LIMIT = POW[PRECISION]!;
const E7 = POW[7]!;

/**
 * Values come in with at least this many decimal places (trailing zeros in `m`), the places of a
 * pro-rata share: the amounts one run adds, subtracts and compares then mostly share one scale,
 * and an operation needs no aligning multiplication.
 */
const MIN_PLACES = SHARE_DECIMALS;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
// 10^n as doubles, exact up to 10^22.
const NUM_POW: number[] = [1];
for (let i = 1; i <= 22; i++) NUM_POW.push(NUM_POW[i - 1]! * 10);

export const S_ZERO = new Scaled(0n, MIN_PLACES, new GainsDecimal(0));

// Digits of one decimal.js word (0 < w < 10^7).
const wordDigits = (w: number) => (w < 10 ? 1 : w < 100 ? 2 : w < 1000 ? 3 : w < 10_000 ? 4 : w < 100_000 ? 5 : w < 1_000_000 ? 6 : 7);

/**
 * A GainsDecimal as a scaled integer. decimal.js documents its instance as `d` (base 10^7 words,
 * most significant first, the first without leading zeros), `e` (the base-10 exponent of the
 * first digit) and `s` (sign); checked when this module loads.
 *
 * @example
 * fromDecimal(new GainsDecimal('-12.5')); // Scaled { m: -12500000000000n, k: 12 }
 */
export function fromDecimal(x: GainsDecimal): Scaled {
  const d = (x as unknown as DecimalParts).d;
  const n = d.length;
  const first = d[0]!;
  if (first === 0) return new Scaled(0n, MIN_PLACES, x);
  const neg = (x as unknown as DecimalParts).s < 0;
  let k = wordDigits(first) + 7 * (n - 1) - 1 - (x as unknown as DecimalParts).e;
  if (n <= 2 && k >= 0) {
    // The digits as one integer: two words are below 10^14. Scaled up to MIN_PLACES while that
    // stays a safe integer (below 2^53, where a double holds every integer exactly and a product
    // of integers that reaches 2^53 stays >= 2^53), it becomes one BigInt instead of five.
    const digits = n === 1 ? first : first * 10_000_000 + d[1]!;
    const up = k < MIN_PLACES ? MIN_PLACES - k : 0;
    const scaled = digits * NUM_POW[up]!;
    if (scaled <= MAX_SAFE) return new Scaled(BigInt(neg ? -scaled : scaled), k + up, x);
  }
  let m = BigInt(first);
  for (let i = 1; i < n; i++) m = m * E7 + BigInt(d[i]!);
  if (k < MIN_PLACES) { m *= pow10(MIN_PLACES - k); k = MIN_PLACES; }
  return new Scaled(neg ? -m : m, k, x);
}

interface DecimalParts { d: number[]; e: number; s: number }

/**
 * The GainsDecimal of a scaled value: the same `d`, `e` and `s` that `new GainsDecimal(string)`
 * would give, built without parsing (a third of the cost).
 *
 * @example
 * toDecimal(new Scaled(-125n, 1)).toFixed(); // '-12.5'
 */
export function toDecimal(v: Scaled): GainsDecimal {
  if (v.dec !== undefined) return v.dec;
  const dec = build(v.m, v.k);
  v.dec = dec;
  return dec;
}

// A GainsDecimal instance from its parts, as decimal.js's constructor lays one out (the same own
// properties in the same order, the same prototype), without its parsing.
interface RawDecimal extends DecimalParts { constructor: unknown }
const RawDecimal = function (this: RawDecimal, s: number, e: number, d: number[]) {
  this.constructor = GainsDecimal;
  this.s = s;
  this.e = e;
  this.d = d;
} as unknown as new (s: number, e: number, d: number[]) => GainsDecimal;
RawDecimal.prototype = GainsDecimal.prototype;

const SAFE_BIG = BigInt(MAX_SAFE);
const E5 = 100_000;
const E12 = 1_000_000_000_000;

// build() for 0 < v < 2^53 at 12 places, in integer arithmetic on a double (exact below 2^53:
// each % and each division of a multiple of a power of ten is exact). The integer part is below
// 10^4, one word; the 12 decimals are two words, the second padded (5 digits, then 00).
function buildSmall(s: number, v: number): GainsDecimal {
  const frac = v % E12;
  const int = (v - frac) / E12;
  const low = frac % E5;
  const w1 = (frac - low) / E5;
  const w2 = low * 100;
  if (int > 0) {
    const e = wordDigits(int) - 1;
    return new RawDecimal(s, e, w2 !== 0 ? [int, w1, w2] : w1 !== 0 ? [int, w1] : [int]);
  }
  if (w1 > 0) return new RawDecimal(s, wordDigits(w1) - 8, w2 !== 0 ? [w1, w2] : [w1]);
  return new RawDecimal(s, wordDigits(w2) - 15, [w2]);
}

// build() for 0 < v < 2^53 at any k <= 22 places (10^k exact as a double), in the same exact
// integer arithmetic: the integer part's words from the decimal point leftwards, the fraction's
// from it rightwards (the last padded with zeros), leading zero words of a fraction below 1
// counted into the exponent, trailing zero words dropped.
function buildSafe(s: number, v: number, k: number): GainsDecimal {
  const p = NUM_POW[k]!;
  const frac = v % p;
  let int = (v - frac) / p;
  const words: number[] = [];
  let e = 0;
  if (int > 0) {
    const low: number[] = [];
    while (int > 0) {
      const w = int % E7_NUM;
      low.push(w);
      int = (int - w) / E7_NUM;
    }
    e = 7 * (low.length - 1) + wordDigits(low[low.length - 1]!) - 1;
    for (let j = low.length - 1; j >= 0; j--) words.push(low[j]!);
  }
  let rest = frac;
  let places = k;
  let skipped = 0;
  while (rest > 0) {
    let w: number;
    if (places >= 7) {
      const unit = NUM_POW[places - 7]!;
      const below = rest % unit;
      w = (rest - below) / unit;
      rest = below;
      places -= 7;
    } else {
      w = rest * NUM_POW[7 - places]!;
      rest = 0;
    }
    if (words.length === 0) {
      if (w === 0) { skipped++; continue; }
      e = wordDigits(w) - 8 - 7 * skipped;
    }
    words.push(w);
  }
  while (words.length > 1 && words[words.length - 1] === 0) words.pop();
  return new RawDecimal(s, e, words);
}
const E7_NUM = 10_000_000;

function build(m: bigint, k: number): GainsDecimal {
  if (m === 0n) return new RawDecimal(1, 0, [0]);
  let s = 1;
  if (m < 0n) { s = -1; m = -m; }
  if (m < SAFE_BIG && k <= 22) return k === MIN_PLACES ? buildSmall(s, Number(m)) : buildSafe(s, Number(m), k);
  const digits = m.toString();
  const e = digits.length - k - 1;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 48) end--;
  // Words of 7 digits, the first ending where the decimal point falls on a multiple of 7; the
  // last padded with zeros. Each word is an integer below 10^7, read digit by digit.
  const words: number[] = [];
  let size = (((e % 7) + 7) % 7) + 1;
  let word = 0;
  let count = 0;
  for (let i = 0; i < end; i++) {
    word = word * 10 + (digits.charCodeAt(i) - 48);
    if (++count === size) { words.push(word); word = 0; count = 0; size = 7; }
  }
  if (count > 0) {
    for (; count < size; count++) word *= 10;
    words.push(word);
  }
  return new RawDecimal(s, e, words);
}

// The exact value of decimal.js's result when it has more than 60 significant digits: rare.
const viaDecimal = (r: GainsDecimal): Scaled => fromDecimal(r);

/** a + b, as GainsDecimal's `plus`. */
export function add(a: Scaled, b: Scaled): Scaled {
  if (b.m === 0n && a.m < LIMIT && a.m > -LIMIT) return a;
  let m: bigint;
  let k: number;
  if (a.k === b.k) { m = a.m + b.m; k = a.k; } else if (a.k > b.k) { m = a.m + b.m * pow10(a.k - b.k); k = a.k; } else { m = a.m * pow10(b.k - a.k) + b.m; k = b.k; }
  if (m >= LIMIT || m <= -LIMIT) return viaDecimal(toDecimal(a).plus(toDecimal(b)));
  return new Scaled(m, k);
}

/** a - b, as GainsDecimal's `minus`. */
export function sub(a: Scaled, b: Scaled): Scaled {
  if (b.m === 0n && a.m < LIMIT && a.m > -LIMIT) return a;
  let m: bigint;
  let k: number;
  if (a.k === b.k) { m = a.m - b.m; k = a.k; } else if (a.k > b.k) { m = a.m - b.m * pow10(a.k - b.k); k = a.k; } else { m = a.m * pow10(b.k - a.k) - b.m; k = b.k; }
  if (m >= LIMIT || m <= -LIMIT) return viaDecimal(toDecimal(a).minus(toDecimal(b)));
  return new Scaled(m, k);
}

/** -1, 0 or 1 as a <, = or > b. */
export function cmp(a: Scaled, b: Scaled): number {
  let x = a.m;
  let y = b.m;
  if (a.k > b.k) y *= pow10(a.k - b.k); else if (a.k < b.k) x *= pow10(b.k - a.k);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The sum of many values as gainsDecimal.sumOf makes it: exact, then rounded to 60 significant
 * digits (by sumOf itself, on the rare sum that reaches 10^60 in scaled units).
 */
export function sum(values: readonly Scaled[]): Scaled {
  if (values.length === 0) return S_ZERO;
  if (values.length === 1) return values[0]!;
  let k = 0;
  for (const v of values) if (v.k > k) k = v.k;
  let m = 0n;
  let big = false;
  for (const v of values) {
    if (v.m >= LIMIT || v.m <= -LIMIT) big = true;
    m += v.k === k ? v.m : v.m * pow10(k - v.k);
  }
  if (big || m >= LIMIT || m <= -LIMIT) return fromDecimal(sumOf(values.map(toDecimal)));
  return new Scaled(m, k);
}

// Number of decimal digits of n > 0.
function digitCount(n: bigint): number {
  if (n < LIMIT) {
    let lo = 1;
    let hi = PRECISION;
    // Smallest d with n < 10^d.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (n < POW[mid]!) hi = mid; else lo = mid + 1;
    }
    return lo;
  }
  return n.toString().length;
}

// |q| = num / den x 10^shift (num, den > 0), rounded half to even to 60 significant digits:
// returns the rounded magnitude as an integer and its decimal places (may be negative).
function quotient60(num: bigint, den: bigint, shift: number): [bigint, number] {
  const ln = digitCount(num);
  const ld = digitCount(den);
  // t = floor(log10(num / den)).
  let t = ln - ld;
  if (t >= 0 ? num < den * pow10(t) : num * pow10(-t) < den) t--;
  // 60 significant digits of num / den: scale so the quotient has 60 integer digits.
  const s2 = PRECISION - 1 - t;
  const n = s2 >= 0 ? num * pow10(s2) : num;
  const dd = s2 >= 0 ? den : den * pow10(-s2);
  let q = n / dd;
  const r2 = (n - q * dd) * 2n;
  if (r2 > dd || (r2 === dd && (q & 1n) === 1n)) q += 1n;
  return [q, s2 - shift];
}

// Rounds |m| x 10^-k (m >= 0) half to even to `places` decimals (k > places).
function roundPlaces(m: bigint, k: number, places: number): bigint {
  const div = pow10(k - places);
  let q = m / div;
  const r2 = (m - q * div) * 2n;
  if (r2 > div || (r2 === div && (q & 1n) === 1n)) q += 1n;
  return q;
}

function fromRounded(neg: boolean, q: bigint, k: number): Scaled {
  if (k < MIN_PLACES) { q *= pow10(MIN_PLACES - k); k = MIN_PLACES; }
  return new Scaled(neg ? -q : q, k);
}

/**
 * a / b rounded to 60 significant digits, half to even: GainsDecimal's `div` (b != 0).
 *
 * @example
 * toDecimal(divide(fromDecimal(new GainsDecimal(1)), fromDecimal(new GainsDecimal(3)))).toFixed(); // '0.3333…' (60 threes)
 */
export function divide(a: Scaled, b: Scaled): Scaled {
  if (b.m === 0n) throw new RangeError('division by zero in the gains engine');
  if (a.m === 0n) return S_ZERO;
  const neg = (a.m < 0n) !== (b.m < 0n);
  const [q, k] = quotient60(a.m < 0n ? -a.m : a.m, b.m < 0n ? -b.m : b.m, b.k - a.k);
  return fromRounded(neg, q, k);
}

/**
 * `total x part / whole` rounded as gainsDecimal.proRata rounds it (the product and the quotient
 * to 60 significant digits, then to SHARE_DECIMALS places, half to even). whole != 0.
 *
 * @example
 * toDecimal(proRata(fromDecimal(new GainsDecimal('6280')), fromDecimal(new GainsDecimal('700')), fromDecimal(new GainsDecimal('1500')))).toFixed(); // '2930.666666666667'
 */
export function proRata(total: Scaled, part: Scaled, whole: Scaled): Scaled {
  if (whole.m === 0n) throw new RangeError('pro-rata share of a zero whole in the gains engine');
  let p = total.m * part.m;
  if (p === 0n) return S_ZERO;
  if (p >= LIMIT || p <= -LIMIT) return fromDecimal(decimalProRata(toDecimal(total), toDecimal(part), toDecimal(whole)));
  const neg = (p < 0n) !== (whole.m < 0n);
  if (p < 0n) p = -p;
  const den = whole.m < 0n ? -whole.m : whole.m;
  const shift = whole.k - total.k - part.k;
  // The share at 12 places in one division: q = floor(p / den x 10^(12 + shift)), r the rest.
  const up = SHARE_DECIMALS + shift;
  const n = up >= 0 ? p * pow10(up) : p;
  const d = up >= 0 ? den : den * pow10(-up);
  let q = n / d;
  if (q < SMALL_SHARE && d < SLIVER) {
    // Below 10^20 units of 10^-12 the share has at most 8 integer digits, so decimal.js's first
    // rounding (to 60 significant digits) is at the 52nd decimal or finer; with d < 10^40 a rest
    // r / d that is not exactly a half is at least 1 / d > 10^-40 from it, beyond that rounding's
    // reach (see below). So one rounding, half to even, is decimal.js's two.
    const r = n % d;
    const c = r - (d - r);
    if (c > 0n || (c === 0n && (q & 1n) === 1n)) q += 1n;
    return new Scaled(neg ? -q : q, SHARE_DECIMALS);
  }
  if (q < SMALL_SHARE) {
    // decimal.js rounds the quotient to 60 significant digits first. Below 10^20 units of 10^-12
    // the share has at most 8 integer digits, so that rounding is at the 52nd decimal or finer and
    // moves q + r / d by at most 10^-40 / 2: it changes the result only when r / d is that close
    // to a half and not exactly a half (an exact half has at most 21 digits, so it stays). Outside
    // that sliver one rounding, half to even, is decimal.js's two.
    const t = (n - q * d) * 2n - d;
    if (t === 0n || d < SLIVER || (t < 0n ? -t : t) * SLIVER > d) {
      if (t > 0n || (t === 0n && (q & 1n) === 1n)) q += 1n;
      return new Scaled(neg ? -q : q, SHARE_DECIMALS);
    }
  }
  const [q60, k] = quotient60(p, den, shift);
  return k > SHARE_DECIMALS ? fromRounded(neg, roundPlaces(q60, k, SHARE_DECIMALS), SHARE_DECIMALS) : fromRounded(neg, q60, k);
}
const SMALL_SHARE = POW[20]!;
const SLIVER = POW[40]!;

// decimal.js's instance layout is read and written above: fail at load, not with wrong figures,
// if a version of decimal.js ever stores it differently.
for (const text of ['0', '1', '-1', '12.5', '0.001', '1234567.1234567', '0.0000000123', '100000000000000000000', '-98765432109876543210.0123456789012345678901']) {
  const want = new GainsDecimal(text);
  const got = toDecimal(new Scaled(fromDecimal(want).m, fromDecimal(want).k));
  const keys = Object.keys(want).join();
  // The layout first: decimal.js may not finish an operation on a malformed value.
  if (keys !== 'constructor,s,e,d' || JSON.stringify([got.s, got.e, got.d]) !== JSON.stringify([want.s, want.e, want.d]) || got.toFixed() !== want.toFixed()) {
    throw new Error(`scaledDecimal.ts: decimal.js ${text} is laid out as ${keys} ${JSON.stringify([want.s, want.e, want.d])}, not as this module expects`);
  }
}
