import { TradeledgerError } from '../errors.js';
import { isNumberText } from './isNumberText.js';
import { ExactDecimal as Exact } from './decimal.js';

/** The pattern of a plain or exponent-notation decimal number, as JSON and the exchange write them. */
const decimalPattern = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Short plain decimals (the usual case) are normalised with string operations: far cheaper than decimal.js. */
const plainPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Inputs whose exponent goes beyond this are refused: no real amount needs it, and it bounds the text we emit. */
const maxExponent = 1000;

export type DecimalParse = { ok: true; value: string } | { ok: false; problem: string };

/**
 * Parses decimal text without ever going through a JS float, returning a flag instead of throwing.
 * Accepts strings, lossless-json numbers ({ value: text }) and bigints; refuses JS numbers (they
 * may already have lost digits), garbage and empty text.
 *
 * @example
 * toDecimalString('-8.9E-8'); // { ok: true, value: '-0.000000089' }
 * toDecimalString('111,1');   // { ok: false, problem: 'not a decimal number: "111,1"' }
 */
export function toDecimalString(text: unknown): DecimalParse {
  if (typeof text === 'bigint') return { ok: true, value: text.toString() };
  if (typeof text === 'number') {
    return { ok: false, problem: `amount ${String(text)} arrived as a JavaScript number and may have lost digits; parse the response with lossless-json or keep amounts as strings` };
  }
  const source = isNumberText(text) ? text.value : text;
  if (typeof source !== 'string') return { ok: false, problem: `expected a decimal number, got ${describe(source)}` };
  const trimmed = source.trim();
  if (trimmed === '') return { ok: false, problem: 'expected a decimal number, got an empty string' };
  const plain = trimmed.length <= 100 ? plainPattern.exec(trimmed) : null;
  if (plain !== null) return { ok: true, value: plainDecimal(plain[1] ?? '', plain[2] ?? '0', plain[3] ?? '') };
  if (!decimalPattern.test(trimmed)) return { ok: false, problem: `not a decimal number: ${JSON.stringify(clip(trimmed))}` };
  const value = new Exact(trimmed);
  if (!value.isZero() && Math.abs(value.e) > maxExponent) {
    return { ok: false, problem: `decimal number out of range (exponent beyond ±${maxExponent}): ${JSON.stringify(clip(trimmed))}` };
  }
  return { ok: true, value: value.toFixed() };
}

/**
 * Normalises decimal text that must be valid (plain notation, no trailing zeros, no "-0").
 * Throws a TradeledgerError naming the bad value; use toDecimalString for untrusted input.
 *
 * @example
 * decimalString('1.2300E+2'); // '123'
 */
export function decimalString(text: unknown): string {
  const parsed = toDecimalString(text);
  if (parsed.ok) return parsed.value;
  throw new TradeledgerError('BAD_DECIMAL', parsed.problem, {
    kind: 'data',
    hint: 'Pass amounts as decimal strings such as "12.5" or "-8.9E-8"; check toDecimalString first for untrusted input.',
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function plainDecimal(sign: string, integer: string, fraction: string): string {
  const whole = integer.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  const text = decimals === '' ? whole : `${whole}.${decimals}`;
  return sign === '-' && text !== '0' ? `-${text}` : text;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
