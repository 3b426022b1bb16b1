import { GainsDecimal, proRata as decimalProRata, SHARE_DECIMALS, sumOf } from './gainsDecimal.js';

/**
 * The gains engine's fast exact decimal: a value is `m x 10^-k` (`k` >= 0 decimal places), `m` a
 * plain number while it is a safe integer (|m| <= 2^53 - 1, where a double holds every integer
 * exactly) and a BigInt beyond. The matchers compute in it and turn values into
 * {@link GainsDecimal} only where a match, a holding or an error message hands them out, so every
 * figure is exactly the one decimal.js computed before (issue 24 item 5: decimal.js was most of the
 * engine's time, then the BigInts were).
 *
 * Numbers are only ever integers here, and an operation on them is kept only when it provably
 * stayed exact: every result is checked to be a safe integer, and since rounding to a double is
 * monotonic and 2^53 is a double, a true result beyond 2^53 - 1 can never come out as one. An
 * operation that does not fit is done again on BigInts. Every result is canonical: a number when
 * its `m` is a safe integer (so zero is always the number 0), a BigInt only beyond.
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
 * test/gains/scaledDecimal.test.ts checks each against decimal.js on awkward values (and around
 * 2^53, where a number becomes a BigInt), and test/gains/matcherIdentity.test.ts whole runs
 * against the matchers as they were.
 *
 * `dec` remembers the GainsDecimal a value came from or was turned into, so an amount that passes
 * through unchanged (a whole lot's cost, a disposal's proceeds) is handed out as the very object
 * that came in.
 */
export class Scaled {
  constructor(readonly m: number | bigint, readonly k: number, public dec: GainsDecimal | undefined = undefined) {}
}

const PRECISION = 60;
const POW: bigint[] = [1n];
for (let i = 1; i <= 160; i++) POW.push(POW[i - 1]! * 10n);
/** 10^n as a BigInt. */
const pow10 = (n: number): bigint => (n < POW.length ? POW[n]! : 10n ** BigInt(n));
const LIMIT = POW[PRECISION]!;
const E7 = POW[7]!;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const SAFE_BIG = BigInt(MAX_SAFE);
// 10^n as doubles, exact up to 10^22. An aligning factor is at most 10^15: 10^16 times any
// non-zero integer is past 2^53.
const NUM_POW: number[] = [1];
for (let i = 1; i <= 22; i++) NUM_POW.push(NUM_POW[i - 1]! * 10);
const MAX_SHIFT = 15;

export const S_ZERO = new Scaled(0, 0, new GainsDecimal(0));

/** True when v is 0 (either representation). */
export const isZero = (v: Scaled): boolean => v.m === 0 || v.m === 0n;

/** -v. */
export function negate(v: Scaled): Scaled {
  const m = v.m;
  return typeof m === 'number' ? new Scaled(-m, v.k) : ofBig(-m, v.k);
}

// The canonical value of a BigInt m x 10^-k: a number when m is a safe integer.
function ofBig(m: bigint, k: number, dec: GainsDecimal | undefined = undefined): Scaled {
  return m <= SAFE_BIG && m >= -SAFE_BIG ? new Scaled(Number(m), k, dec) : new Scaled(m, k, dec);
}
const big = (m: number | bigint): bigint => (typeof m === 'number' ? BigInt(m) : m);

// Digits of one decimal.js word (0 < w < 10^7).
const wordDigits = (w: number) => (w < 10 ? 1 : w < 100 ? 2 : w < 1000 ? 3 : w < 10_000 ? 4 : w < 100_000 ? 5 : w < 1_000_000 ? 6 : 7);

/**
 * A GainsDecimal as a scaled integer, at the places its digits need (12.50 is 125 x 10^-1). decimal.js documents its instance as `d` (base 10^7 words,
 * most significant first, the first without leading zeros, the last padded with zeros), `e` (the base-10 exponent of the
 * first digit) and `s` (sign); checked when this module loads.
 *
 * @example
 * fromDecimal(new GainsDecimal('-12.5')); // Scaled { m: -125, k: 1 }
 */
export function fromDecimal(x: GainsDecimal): Scaled {
  const d = (x as unknown as DecimalParts).d;
  const n = d.length;
  const first = d[0]!;
  if (first === 0) return new Scaled(0, 0, x);
  const neg = (x as unknown as DecimalParts).s < 0;
  // The places of the last word's last digit, then without that word's padding zeros (the last
  // word is never 0: decimal.js drops trailing zero words).
  let k = wordDigits(first) + 7 * (n - 1) - 1 - (x as unknown as DecimalParts).e;
  // Its padding zeros off in three steps (at most 6 of them): small-integer operations.
  let last = d[n - 1]!;
  let lastDigits = 7;
  if (last % 10_000 === 0) { last = (last / 10_000) | 0; lastDigits -= 4; }
  if (last % 100 === 0) { last = (last / 100) | 0; lastDigits -= 2; }
  if (last % 10 === 0) { last = (last / 10) | 0; lastDigits -= 1; }
  k -= 7 - lastDigits;
  if (n <= 3 && k >= -MAX_SHIFT) {
    // Up to 21 digits: as a double, kept when the result is a safe integer (then every step was).
    let m = n === 1 ? last : (n === 2 ? first : first * 10_000_000 + d[1]!) * NUM_POW[lastDigits]! + last;
    if (k < 0) { m *= NUM_POW[-k]!; k = 0; }
    if (m <= MAX_SAFE) return new Scaled(neg ? -m : m, k, x);
  }
  let m: bigint;
  if (n === 1) m = BigInt(last);
  else if (n <= 3) {
    // The words before the last as one exact double (below 10^14), then the last.
    m = BigInt(n === 2 ? first : first * 10_000_000 + d[1]!) * POW[lastDigits]! + BigInt(last);
  } else {
    m = BigInt(first);
    for (let i = 1; i < n - 1; i++) m = m * E7 + BigInt(d[i]!);
    m = m * POW[lastDigits]! + BigInt(last);
  }
  if (k < 0) { m *= pow10(-k); k = 0; }
  return ofBig(neg ? -m : m, k, x);
}

interface DecimalParts { d: number[]; e: number; s: number }

/**
 * The GainsDecimal of a scaled value: the same `d`, `e` and `s` that `new GainsDecimal(string)`
 * would give, built without parsing (a third of the cost).
 *
 * @example
 * toDecimal(new Scaled(-125, 1)).toFixed(); // '-12.5'
 */
export function toDecimal(v: Scaled): GainsDecimal {
  if (v.dec !== undefined) return v.dec;
  const m = v.m;
  const dec = typeof m === 'number' ? buildNumber(m, v.k) : build(m, v.k);
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

const DIGIT_POW = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000];

/**
 * `new GainsDecimal(text)` (or its `abs()` when `abs`) for the text PostgreSQL writes a numeric in:
 * an optional '-', digits with at most one '.', at least one digit. One pass over the characters
 * builds the same `s`, `e` and `d` that decimal.js's parse does (leading and trailing zeros
 * dropped, the digits cut into base 10^7 words aligned on the exponent, the last padded with
 * zeros; '-0' keeps its sign), without its regular expressions and slices: two of these per
 * ledger row were most of the gains run's decimal.js time (issue 24). Any other text (an
 * exponent, a '+', a space, a second sign) goes through decimal.js as before, which reads it or
 * refuses it. test/gains/scaledDecimal.test.ts holds it equal to decimal.js on awkward texts.
 *
 * @example
 * decimalOfText('-0012.3400').toFixed(); // '-12.34'
 * decimalOfText('-5', true).toFixed();   // '5'
 */
export function decimalOfText(text: string, abs = false): GainsDecimal {
  const len = text.length;
  let start = 0;
  let s = 1;
  if (len > 0 && text.charCodeAt(0) === 45) { start = 1; s = abs ? 1 : -1; }
  let dot = -1;
  let first = -1;
  let last = -1;
  let digits = 0;
  for (let i = start; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (dot !== -1) return viaDecimalJs(text, abs);
      dot = i;
    } else if (c >= 48 && c <= 57) {
      digits++;
      if (c !== 48) { if (first === -1) first = i; last = i; }
    } else {
      return viaDecimalJs(text, abs);
    }
  }
  if (digits === 0) return viaDecimalJs(text, abs);
  if (first === -1) return new RawDecimal(s, 0, [0]);
  const point = dot === -1 ? len : dot;
  // The base-10 exponent of the first digit, and how many significant digits there are.
  const e = first < point ? point - first - 1 : point - first;
  const n = last - first + 1 - (first < point && last > point ? 1 : 0);
  if (n > 1000 || e > 1_000_000 || e < -1_000_000) return viaDecimalJs(text, abs);
  // decimal.js's cut: the first word holds the digits down to an exponent that is a multiple of 7.
  let lead = (e + 1) % 7;
  if (e < 0) lead += 7;
  const d: number[] = [];
  let w = 0;
  let inWord = 0;
  let need = lead > 0 && lead < n ? lead : lead >= n ? n : 7;
  for (let i = first; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) continue;
    w = w * 10 + (c - 48);
    if (++inWord === need) { d.push(w); w = 0; inWord = 0; need = 7; }
  }
  if (lead >= n) {
    // One word: the digits, then zeros up to the word's last place.
    d[0] = d[0]! * DIGIT_POW[lead - n]!;
  } else if (inWord > 0) {
    d.push(w * DIGIT_POW[7 - inWord]!);
  }
  return new RawDecimal(s, e, d);
}

const viaDecimalJs = (text: string, abs: boolean): GainsDecimal => (abs ? new GainsDecimal(text).abs() : new GainsDecimal(text));

const E5 = 100_000;
const E12 = 1_000_000_000_000;

// A safe integer m x 10^-k.
function buildNumber(m: number, k: number): GainsDecimal {
  if (m === 0) return new RawDecimal(1, 0, [0]);
  const s = m < 0 ? -1 : 1;
  const v = m < 0 ? -m : m;
  if (k === SHARE_DECIMALS) return buildSmall(s, v);
  if (k <= 22) return buildSafe(s, v, k);
  return build(BigInt(m), k);
}

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
// counted into the exponent, trailing zero words dropped. The words go through a scratch list
// into an array of their exact length (an array grown by push keeps room for 16 more).
function buildSafe(s: number, v: number, k: number): GainsDecimal {
  const p = NUM_POW[k]!;
  const frac = v % p;
  let int = (v - frac) / p;
  const words = SCRATCH;
  let n = 0;
  let e = 0;
  if (int > 0) {
    if (int < E7_NUM) {
      words[n++] = int;
      e = wordDigits(int) - 1;
    } else {
      // At most three words below 2^53, written from the least significant.
      let count = 0;
      const low = LOW_WORDS;
      while (int > 0) {
        const w = int % E7_NUM;
        low[count++] = w;
        int = (int - w) / E7_NUM;
      }
      e = 7 * (count - 1) + wordDigits(low[count - 1]!) - 1;
      for (let j = count - 1; j >= 0; j--) words[n++] = low[j]!;
    }
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
    if (n === 0) {
      if (w === 0) { skipped++; continue; }
      e = wordDigits(w) - 8 - 7 * skipped;
    }
    words[n++] = w;
  }
  while (n > 1 && words[n - 1] === 0) n--;
  return new RawDecimal(s, e, n === 1 ? [words[0]!] : n === 2 ? [words[0]!, words[1]!] : n === 3 ? [words[0]!, words[1]!, words[2]!] : words.slice(0, n));
}
// At most 16 digits span at most 4 words (with the skipped leading zero words of a fraction not
// among them); room for 8.
const SCRATCH: number[] = [0, 0, 0, 0, 0, 0, 0, 0];
const LOW_WORDS: number[] = [0, 0, 0, 0];
const E7_NUM = 10_000_000;

function build(m: bigint, k: number): GainsDecimal {
  if (m === 0n) return new RawDecimal(1, 0, [0]);
  let s = 1;
  if (m < 0n) { s = -1; m = -m; }
  if (m < SAFE_BIG && k <= 22) return k === SHARE_DECIMALS ? buildSmall(s, Number(m)) : buildSafe(s, Number(m), k);
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

// x x 10^shift for a safe integer x and 0 < shift: the product, or NaN when it is not a safe
// integer (then it was not exact either).
function scaleUp(x: number, shift: number): number {
  if (shift > MAX_SHIFT) return x === 0 ? 0 : NaN;
  const t = x * NUM_POW[shift]!;
  return t <= MAX_SAFE && t >= -MAX_SAFE ? t : NaN;
}

/** a + b, as GainsDecimal's `plus`. */
export function add(a: Scaled, b: Scaled): Scaled {
  const x = a.m;
  const y = b.m;
  if (typeof x === 'number' && typeof y === 'number') {
    if (y === 0) return a;
    const ka = a.k;
    const kb = b.k;
    // NaN (an aligned value past 2^53) fails the range test and goes to the BigInts.
    const m = ka === kb ? x + y : ka > kb ? x + scaleUp(y, ka - kb) : scaleUp(x, kb - ka) + y;
    if (m <= MAX_SAFE && m >= -MAX_SAFE) return new Scaled(m, ka > kb ? ka : kb);
  }
  return addBig(a, b, false);
}

/** a - b, as GainsDecimal's `minus`. */
export function sub(a: Scaled, b: Scaled): Scaled {
  const x = a.m;
  const y = b.m;
  if (typeof x === 'number' && typeof y === 'number') {
    if (y === 0) return a;
    const ka = a.k;
    const kb = b.k;
    const m = ka === kb ? x - y : ka > kb ? x - scaleUp(y, ka - kb) : scaleUp(x, kb - ka) - y;
    if (m <= MAX_SAFE && m >= -MAX_SAFE) return new Scaled(m, ka > kb ? ka : kb);
  }
  return addBig(a, b, true);
}

function addBig(a: Scaled, b: Scaled, minus: boolean): Scaled {
  const x = big(a.m);
  let y = big(b.m);
  if (y === 0n && x < LIMIT && x > -LIMIT) return a;
  if (minus) y = -y;
  let m: bigint;
  let k: number;
  if (a.k === b.k) { m = x + y; k = a.k; } else if (a.k > b.k) { m = x + y * pow10(a.k - b.k); k = a.k; } else { m = x * pow10(b.k - a.k) + y; k = b.k; }
  if (m >= LIMIT || m <= -LIMIT) return viaDecimal(minus ? toDecimal(a).minus(toDecimal(b)) : toDecimal(a).plus(toDecimal(b)));
  return ofBig(m, k);
}

/** -1, 0 or 1 as a <, = or > b. */
export function cmp(a: Scaled, b: Scaled): number {
  const x = a.m;
  const y = b.m;
  if (typeof x === 'number' && typeof y === 'number') {
    if (a.k === b.k) return x < y ? -1 : x > y ? 1 : 0;
    // An aligned value past 2^53 is beyond every safe integer: its sign decides.
    if (a.k > b.k) {
      const t = scaleUp(y, a.k - b.k);
      if (t !== t) return y > 0 ? -1 : 1;
      return x < t ? -1 : x > t ? 1 : 0;
    }
    const t = scaleUp(x, b.k - a.k);
    if (t !== t) return x > 0 ? 1 : -1;
    return t < y ? -1 : t > y ? 1 : 0;
  }
  let bx = big(x);
  let by = big(y);
  if (a.k > b.k) by *= pow10(a.k - b.k); else if (a.k < b.k) bx *= pow10(b.k - a.k);
  return bx < by ? -1 : bx > by ? 1 : 0;
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
  let n = 0;
  let exact = true;
  for (const v of values) {
    const x = v.m;
    if (typeof x !== 'number') { exact = false; break; }
    n += v.k === k ? x : scaleUp(x, k - v.k);
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE)) { exact = false; break; }
  }
  if (exact) return new Scaled(n, k);
  let m = 0n;
  let huge = false;
  for (const v of values) {
    const x = big(v.m);
    if (x >= LIMIT || x <= -LIMIT) huge = true;
    m += v.k === k ? x : x * pow10(k - v.k);
  }
  if (huge || m >= LIMIT || m <= -LIMIT) return fromDecimal(sumOf(values.map(toDecimal)));
  return ofBig(m, k);
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
  if (k < 0) { q *= pow10(-k); k = 0; }
  return ofBig(neg ? -q : q, k);
}

/**
 * a / b rounded to 60 significant digits, half to even: GainsDecimal's `div` (b != 0).
 *
 * @example
 * toDecimal(divide(fromDecimal(new GainsDecimal(1)), fromDecimal(new GainsDecimal(3)))).toFixed(); // '0.3333…' (60 threes)
 */
export function divide(a: Scaled, b: Scaled): Scaled {
  if (isZero(b)) throw new RangeError('division by zero in the gains engine');
  if (isZero(a)) return S_ZERO;
  const x = big(a.m);
  const y = big(b.m);
  const neg = (x < 0n) !== (y < 0n);
  const [q, k] = quotient60(x < 0n ? -x : x, y < 0n ? -y : y, b.k - a.k);
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
  const t = total.m;
  const p = part.m;
  const w = whole.m;
  if (typeof t === 'number' && typeof p === 'number' && typeof w === 'number' && w !== 0) {
    const prod = t * p;
    if (prod === 0) return S_ZERO;
    // The share at 12 places in one division of safe integers: q = floor(n / d), r the rest.
    // Both roundings of decimal.js are one here (see proRataBig: q < 2^53 < 10^20, d < 10^40).
    const up = SHARE_DECIMALS + whole.k - total.k - part.k;
    const n = up >= 0 ? scaleUp(prod < 0 ? -prod : prod, up) : prod < 0 ? -prod : prod;
    const d = up >= 0 ? (w < 0 ? -w : w) : scaleUp(w < 0 ? -w : w, -up);
    if (n <= MAX_SAFE && d <= MAX_SAFE) {
      // n % d and (n - r) / d are exact on safe integers; |r - (d - r)| <= d is safe.
      const r = n % d;
      let q = (n - r) / d;
      const c = r - (d - r);
      if (c > 0 || (c === 0 && q % 2 === 1)) q += 1;
      if (q === 0) return S_ZERO;
      return new Scaled((prod < 0) !== (w < 0) ? -q : q, SHARE_DECIMALS);
    }
  }
  return proRataBig(total, part, whole);
}

function proRataBig(total: Scaled, part: Scaled, whole: Scaled): Scaled {
  if (isZero(whole)) throw new RangeError('pro-rata share of a zero whole in the gains engine');
  let p = big(total.m) * big(part.m);
  if (p === 0n) return S_ZERO;
  if (p >= LIMIT || p <= -LIMIT) return fromDecimal(decimalProRata(toDecimal(total), toDecimal(part), toDecimal(whole)));
  const w = big(whole.m);
  const neg = (p < 0n) !== (w < 0n);
  if (p < 0n) p = -p;
  const den = w < 0n ? -w : w;
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
    return ofBig(neg ? -q : q, SHARE_DECIMALS);
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
      return ofBig(neg ? -q : q, SHARE_DECIMALS);
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
