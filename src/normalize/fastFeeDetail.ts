import { toDecimalString } from './decimalString.js';
import type { FeeFormat } from './feeFormat.js';
import type { FeeRow } from './feeRow.js';
import type { FeeContext, ParsedFeeDetail } from './parseFeeDetail.js';
import { isAbsent, readFlag } from './readFeeDetail.js';

/**
 * parseFeeDetail's fast path: the same result, for the usual feeDetail, at a fraction of the cost
 * (issue 24 item 2: lossless-json and decimal.js were ~6% of the sync process's CPU). It returns
 * `undefined` whenever it cannot be sure to give exactly what the general path
 * (`exactFeeDetail`) gives, and the caller then takes that path:
 *
 * - a feeDetail string is read by `JSON.parse` only when every number in it is canonical (its
 *   text is what `String(Number(text))` writes, so the number gives back its text exactly, as
 *   lossless-json would keep it), it has no backslash and no whitespace outside strings, and no
 *   key repeats (lossless-json refuses a repeated key, `JSON.parse` keeps the last). `1.10`,
 *   `-0`, `-8.9E-8`, `1e5` and digits beyond a double all take the general path;
 * - an amount is taken only as plain decimal text (`-0.0123`, `"12.50"`, no exponent, no sign but
 *   `-`, no blank), read as an integer at one scale for the whole feeDetail while every amount
 *   fits 15 digits at it (so every sum and difference of up to 8 rows is an exact integer in a
 *   double, the rows being at most 8); the results are written as decimal.js's `toFixed()` writes them;
 * - anything that would give a problem, an object that looks like a lossless number, more than 8
 *   parts: the general path, which words the problem.
 *
 * test/normalize/fastFeeDetail.test.ts holds the two equal on awkward inputs and on every form the
 * sandbox writes.
 *
 * @example
 * fastFeeDetail('{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1}}', { receivedCoin: 'USDT' })?.rows[0]?.paid; // '0.1'
 * fastFeeDetail('{"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.10}}', { receivedCoin: 'USDT' }); // undefined (1.10 is kept as written)
 */
export function fastFeeDetail(input: unknown, context: FeeContext = {}): ParsedFeeDetail | undefined {
  // No fee yet ("", blank, null, absent): readFeeDetail's empty form.
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) return { rows: [], format: 'empty', problems: [] };
  let value: unknown;
  if (typeof input === 'string') {
    value = parseKeepingNumbers(input);
    if (value === undefined) return undefined;
  } else {
    // An object or array from the response body (spot fills, futures fills): its numbers are JS
    // numbers, which the general path refuses as amounts, so any number here means "not sure".
    value = input;
  }
  const shape = readShape(value);
  if (shape === undefined) return undefined;
  if (shape.parts.length === 0) return { rows: [], format: shape.format, problems: [] };
  return rowsOf(shape, context);
}

// ---- reading: the shapes of readFeeDetail, for inputs it reads without a problem ----

interface Amounts { texts: string[] }
interface NewPart { kind: 'newFees'; c: number; d: number; r: number; t: number; tText: string; raw: Record<string, string> }
interface CoinPart { kind: 'coinFee'; coin: string; deduction: boolean; totalDeductionFee: number | null; totalFee: number | null; totalFeeText: string | null; raw: Record<string, string> }
type Part = NewPart | CoinPart;
interface Shape { format: FeeFormat; parts: Part[]; scale: number }

const MAX_DIGITS = 15;
const MAX_PARTS = 8;
const plainAmount = /^-?\d+(?:\.\d+)?$/;

// The parts are read in two steps: first every amount as normalised text (so the scale common to
// the whole feeDetail is known), then each as an integer at that scale.
interface PendingNew { kind: 'newFees'; amounts: [string, string, string, string]; raw: Record<string, string> }
interface PendingCoin { kind: 'coinFee'; coin: string; deduction: boolean; totalDeductionFee: string | null; totalFee: string | null; raw: Record<string, string> }
type Pending = PendingNew | PendingCoin;

function readShape(value: unknown): Shape | undefined {
  const amounts: Amounts = { texts: [] };
  let format: FeeFormat;
  const pending: Pending[] = [];
  if (Array.isArray(value)) {
    if (value.length === 0) return { format: 'empty', parts: [], scale: 0 };
    if (value.length > MAX_PARTS) return undefined;
    format = 'fill-array';
    for (let i = 0; i < value.length; i++) {
      const part = readCoinFee(value[i], `[${i}]`, 'feeCoin', amounts);
      if (part === undefined) return undefined;
      pending.push(part);
    }
  } else {
    if (!isPlainObject(value)) return undefined;
    const keys = Object.keys(value).filter((key) => !isAbsent(value[key]));
    if (keys.length === 0) return { format: 'empty', parts: [], scale: 0 };
    if (keys.includes('newFees')) {
      format = 'new';
      const part = readNewFees(value['newFees'], 'newFees', amounts);
      if (part === undefined) return undefined;
      pending.push(part);
    } else if ('feeCoin' in value) {
      format = 'fill-object';
      const part = readCoinFee(value, '', 'feeCoin', amounts);
      if (part === undefined) return undefined;
      pending.push(part);
    } else {
      if (keys.length > MAX_PARTS) return undefined;
      const nested: string[] = [];
      for (const key of keys) {
        const inner = value[key];
        if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) continue;
        if (!isPlainObject(inner)) return undefined;
        if (!isAbsent(inner['newFees'])) nested.push(key);
      }
      if (nested.length > 0) {
        format = 'new';
        for (const key of nested) {
          const part = readNewFees((value[key] as Record<string, unknown>)['newFees'], `${key}.newFees`, amounts);
          if (part === undefined) return undefined;
          pending.push(part);
        }
      } else {
        format = 'legacy';
        for (const key of keys) {
          const part = readCoinFee(value[key], key, 'feeCoinCode', amounts);
          if (part === undefined) return undefined;
          pending.push(part);
        }
      }
    }
  }
  const scale = commonScale(amounts.texts);
  if (scale === undefined) return undefined;
  const parts: Part[] = pending.map((p) => (p.kind === 'newFees'
    ? {
      kind: 'newFees', c: scaled(p.amounts[0], scale), d: scaled(p.amounts[1], scale), r: scaled(p.amounts[2], scale), t: scaled(p.amounts[3], scale),
      tText: p.amounts[3], raw: p.raw,
    }
    : {
      kind: 'coinFee', coin: p.coin, deduction: p.deduction,
      totalDeductionFee: p.totalDeductionFee === null ? null : scaled(p.totalDeductionFee, scale),
      totalFee: p.totalFee === null ? null : scaled(p.totalFee, scale), totalFeeText: p.totalFee, raw: p.raw,
    }));
  return { format, parts, scale };
}

function readNewFees(value: unknown, path: string, amounts: Amounts): PendingNew | undefined {
  if (!isPlainObject(value)) return undefined;
  const raw: Record<string, string> = {};
  const read: [string, string, string, string] = ['0', '0', '0', '0'];
  const names = pathsOf(path, newFeesFields);
  for (let i = 0; i < 4; i++) {
    const v = value[newFeesFields[i]!];
    if (isAbsent(v)) {
      if (i === 3) return undefined;
      continue;
    }
    const amount = readAmount(v, names[i]!, raw, amounts);
    if (amount === undefined) return undefined;
    read[i] = amount;
  }
  return { kind: 'newFees', amounts: read, raw };
}

function readCoinFee(value: unknown, path: string, coinField: 'feeCoin' | 'feeCoinCode', amounts: Amounts): PendingCoin | undefined {
  if (!isPlainObject(value)) return undefined;
  const coin = value[coinField];
  if (typeof coin !== 'string' || coin.trim() === '') return undefined;
  const deduction = readFlag(value['deduction']);
  if (deduction === null) return undefined;
  const raw: Record<string, string> = {};
  let totalDeductionFee: string | null = null;
  let totalFee: string | null = null;
  const names = pathsOf(path, coinFeeFields);
  const tdf = value['totalDeductionFee'];
  if (!isAbsent(tdf)) {
    const read = readAmount(tdf, names[0]!, raw, amounts);
    if (read === undefined) return undefined;
    totalDeductionFee = read;
  }
  const tf = value['totalFee'];
  if (!isAbsent(tf)) {
    const read = readAmount(tf, names[1]!, raw, amounts);
    if (read === undefined) return undefined;
    totalFee = read;
  }
  return { kind: 'coinFee', coin: coin.trim(), deduction, totalDeductionFee, totalFee, raw };
}

// A present amount as toDecimalString normalises it, its wire text kept in raw; undefined for
// what toDecimalString refuses (and for a JS number from a response body).
function readAmount(value: unknown, path: string, raw: Record<string, string>, amounts: Amounts): string | undefined {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value instanceof NumberText) text = value.text;
  else return undefined;
  let normal: string;
  if (text.length <= 40 && plainAmount.test(text)) normal = normalDecimal(text);
  else {
    // Exponents, blanks, a plus sign: toDecimalString itself (decimal.js), for this amount only.
    const parsed = toDecimalString(text);
    if (!parsed.ok) return undefined;
    normal = parsed.value;
  }
  raw[path] = text;
  amounts.texts.push(normal);
  return normal;
}

// toDecimalString's plainDecimal: no leading zeros (but one), no trailing zeros, no "-0".
function normalDecimal(text: string): string {
  const negative = text.charCodeAt(0) === 45;
  const body = negative ? text.slice(1) : text;
  const dot = body.indexOf('.');
  let whole = dot < 0 ? body : body.slice(0, dot);
  let fraction = dot < 0 ? '' : body.slice(dot + 1);
  let start = 0;
  while (start < whole.length - 1 && whole.charCodeAt(start) === 48) start++;
  if (start > 0) whole = whole.slice(start);
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  if (end < fraction.length) fraction = fraction.slice(0, end);
  const plain = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && plain !== '0' ? `-${plain}` : plain;
}

const newFeesFields = ['c', 'd', 'r', 't'] as const;
const coinFeeFields = ['totalDeductionFee', 'totalFee'] as const;
// The raw keys of a part's amounts by the part's path ('newFees' -> 'newFees.c', ...; '' -> the
// bare field names), made once per path: a key made per record costs a string each time.
const pathNames = new Map<readonly string[], Map<string, string[]>>([[newFeesFields, new Map()], [coinFeeFields, new Map()]]);
function pathsOf(path: string, fields: readonly string[]): readonly string[] {
  const known = pathNames.get(fields)!;
  let names = known.get(path);
  if (names === undefined) {
    names = fields.map((f) => (path === '' ? f : `${path}.${f}`));
    // Paths are coins and list positions: few. A flood of odd ones is not remembered.
    if (known.size < 10_000) known.set(path, names);
  }
  return names;
}

// A JSON object that the general path would also read as one: not an array, not a number, and not
// shaped like a lossless-json number ({ isLosslessNumber, value }), which the general path takes
// for a number.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText) && !('isLosslessNumber' in value);
}

// ---- numbers: integers at one scale ----

const POW10: number[] = [1];
for (let i = 1; i <= MAX_DIGITS; i++) POW10.push(POW10[i - 1]! * 10);

// The decimal places every amount fits at, when each then has at most 15 digits; else undefined.
function commonScale(texts: readonly string[]): number | undefined {
  let scale = 0;
  let whole = 0;
  for (const text of texts) {
    const negative = text.charCodeAt(0) === 45 ? 1 : 0;
    const dot = text.indexOf('.');
    const wholeDigits = (dot < 0 ? text.length : dot) - negative;
    const places = dot < 0 ? 0 : text.length - dot - 1;
    if (places > scale) scale = places;
    // "0.5" has no whole digit that counts.
    if (!(wholeDigits === 1 && text.charCodeAt(negative) === 48) && wholeDigits > whole) whole = wholeDigits;
  }
  return scale + whole <= MAX_DIGITS ? scale : undefined;
}

// A normalised decimal text as an integer at `scale` places (exact: at most 15 digits).
function scaled(text: string, scale: number): number {
  const dot = text.indexOf('.');
  if (dot < 0) return Number(text) * POW10[scale]!;
  const places = text.length - dot - 1;
  return Number(text.slice(0, dot) + text.slice(dot + 1)) * POW10[scale - places]!;
}

// decimal.js's toFixed() of the value: plain, no trailing zeros, zero as "0".
function fixed(m: number, scale: number): string {
  if (m === 0) return '0';
  const negative = m < 0;
  let digits = String(negative ? -m : m);
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    const cut = digits.length - scale;
    let end = digits.length;
    while (end > cut && digits.charCodeAt(end - 1) === 48) end--;
    digits = end === cut ? digits.slice(0, cut) : `${digits.slice(0, cut)}.${digits.slice(cut, end)}`;
  }
  return negative ? `-${digits}` : digits;
}

// ---- rows: parseFeeDetail's rules on those integers ----

interface Row {
  coin: string;
  paid: number;
  platformDeducted: number;
  couponCovered: number;
  payableInReceivedCoin: number;
  receivedCoin: string | null;
  raw: Record<string, string>;
}

function rowsOf(shape: Shape, context: FeeContext): ParsedFeeDetail | undefined {
  const received = context.receivedCoin ?? null;
  const platformCoin = context.platformCoin ?? 'BGB';
  const rebateIfPositive = (context.positiveFeeIs ?? 'rebate') === 'rebate';
  // The rebate sign, read from the normalised text as the general path does.
  const hasRebateSign = (text: string) => (text.charCodeAt(0) === 45) !== rebateIfPositive;
  const rows: Row[] = [];
  for (const part of shape.parts) {
    if (part.kind === 'newFees') {
      if (received === null) return undefined;
      const t = Math.abs(part.t);
      const c = Math.abs(part.c);
      const d = Math.abs(part.d);
      const r = Math.abs(part.r);
      const row = (coin: string, paid: number, platformDeducted: number, couponCovered: number, payable: number): Row => ({
        coin, paid, platformDeducted, couponCovered, payableInReceivedCoin: payable, receivedCoin: received, raw: part.raw,
      });
      if (d === 0 && c === 0 && t !== 0 && hasRebateSign(part.tText)) {
        if (r !== 0 && r !== t) return undefined;
        rows.push(row(received, -t, 0, 0, -t));
        continue;
      }
      if (c > t) return undefined;
      if (d === 0) {
        const paid = t - c;
        if (r !== 0 && r !== paid) return undefined;
        if (t !== 0) rows.push(row(received, paid, 0, c, t));
        continue;
      }
      if (r + c > t) return undefined;
      if (r === 0 && c === 0) rows.push(row(platformCoin, d, d, 0, t));
      else rows.push(row(received, r, 0, c, t), row(platformCoin, d, d, 0, 0));
      continue;
    }
    if (part.deduction) {
      if (part.coin !== platformCoin || part.totalDeductionFee === null) return undefined;
      const paid = Math.abs(part.totalDeductionFee);
      if (paid === 0) {
        if (part.totalFee !== null && part.totalFee !== 0) return undefined;
        continue;
      }
      rows.push({
        coin: part.coin, paid, platformDeducted: paid, couponCovered: 0, payableInReceivedCoin: part.totalFee === null ? 0 : Math.abs(part.totalFee),
        receivedCoin: received, raw: part.raw,
      });
      continue;
    }
    if (part.totalFee === null || part.totalFeeText === null) return undefined;
    if (part.totalFee === 0) continue;
    const paid = hasRebateSign(part.totalFeeText) ? -Math.abs(part.totalFee) : Math.abs(part.totalFee);
    rows.push({ coin: part.coin, paid, platformDeducted: 0, couponCovered: 0, payableInReceivedCoin: paid, receivedCoin: part.coin, raw: part.raw });
  }
  // At most 8 rows of integers below 10^15 each: every sum stays below 2^53, so stays exact.
  if (rows.length > MAX_PARTS) return undefined;
  const merged = rows.length < 2 ? rows : mergeByCoin(rows);
  const scale = shape.scale;
  const out: FeeRow[] = merged.map((row) => {
    const paid = fixed(row.paid, scale);
    return {
      coin: row.coin,
      paid,
      platformDeducted: fixed(row.platformDeducted, scale),
      couponCovered: fixed(row.couponCovered, scale),
      payableInReceivedCoin: fixed(row.payableInReceivedCoin, scale),
      receivedCoin: row.receivedCoin,
      format: shape.format,
      rebate: paid.charCodeAt(0) === 45,
      raw: { ...row.raw },
    };
  });
  return { rows: out, format: shape.format, problems: [] };
}

function mergeByCoin(rows: Row[]): Row[] {
  const merged = new Map<string, Row>();
  for (const row of rows) {
    const seen = merged.get(row.coin);
    merged.set(row.coin, seen === undefined ? row : {
      coin: row.coin,
      paid: seen.paid + row.paid,
      platformDeducted: seen.platformDeducted + row.platformDeducted,
      couponCovered: seen.couponCovered + row.couponCovered,
      payableInReceivedCoin: seen.payableInReceivedCoin + row.payableInReceivedCoin,
      receivedCoin: seen.receivedCoin ?? row.receivedCoin,
      raw: { ...seen.raw, ...row.raw },
    });
  }
  return [...merged.values()];
}

// ---- the JSON text: JSON.parse, each number given back its own text ----

/** A JSON number of a feeDetail string, as written (lossless-json's LosslessNumber, for this path). */
class NumberText {
  constructor(readonly text: string) {}
}

/**
 * The value of a feeDetail string as lossless-json's parse gives it (objects, arrays, strings,
 * and every number as its own text), by `JSON.parse` and one walk: the numbers' texts are taken
 * from the text in order, and the walk meets the numbers in the same order (arrays by index,
 * objects by insertion order, which holds while no key starts with a digit: an integer key would
 * be listed first). Undefined (the general path runs) for text with a backslash or whitespace
 * outside strings, a repeated key (lossless-json refuses one, `JSON.parse` keeps the last), a key
 * starting with a digit, a top level that is not an object or array, and text that is not JSON.
 */
function parseKeepingNumbers(text: string): unknown {
  const n = text.length;
  if (n === 0 || n > 4000 || text.indexOf('\\') >= 0) return undefined;
  // Each key is a string followed directly by ':' (no whitespace is allowed outside strings, and
  // without backslashes a string ends at the next quote); JSON.parse drops repeated keys, so its
  // objects hold fewer keys than the text names exactly when one repeats.
  let keys = 0;
  const numbers: string[] = [];
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return undefined;
      if (text.charCodeAt(end + 1) === 58) keys++;
      i = end + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) j++;
        else break;
      }
      numbers.push(text.slice(i, j));
      i = j;
    } else if (c <= 32) {
      return undefined;
    } else {
      i++;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const walk = { numbers, next: 0, keys: 0 };
  if (!giveNumbersTheirText(value as Record<string, unknown>, walk)) return undefined;
  return walk.keys === keys && walk.next === numbers.length ? value : undefined;
}

// Replaces every number in a JSON.parse result by its text, in document order; false for a key
// that starts with a digit (its place in the object's key order is not its place in the text).
function giveNumbersTheirText(node: Record<string, unknown> | unknown[], walk: { numbers: string[]; next: number; keys: number }): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v = node[i];
      if (typeof v === 'number') node[i] = new NumberText(walk.numbers[walk.next++] ?? '');
      else if (typeof v === 'object' && v !== null && !giveNumbersTheirText(v as Record<string, unknown>, walk)) return false;
    }
    return true;
  }
  for (const key in node) {
    walk.keys++;
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57) return false;
    const v = node[key];
    if (typeof v === 'number') node[key] = new NumberText(walk.numbers[walk.next++] ?? '');
    else if (typeof v === 'object' && v !== null && !giveNumbersTheirText(v as Record<string, unknown>, walk)) return false;
  }
  return true;
}
