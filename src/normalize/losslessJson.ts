import { isSafeNumber, parse } from 'lossless-json';

/**
 * What a JSON number becomes: `'text'` every number a lossless-json LosslessNumber (its original
 * text, read with toDecimalString); `'exact'` a JS number when a double holds it exactly, else its
 * exact text as a string.
 */
export type JsonNumbers = 'text' | 'exact';

/**
 * Number literals that might not survive a double: 16 or more digit/dot characters, or an
 * exponent. Anything shorter has at most 15 significant digits, which a double always holds.
 * A number value always follows `:`, `[` or `,`; digits after those inside a string ("12:30")
 * are false hits that only cost a closer look.
 */
const doubtfulNumber = /[:[,]\s*(-?(?=[\d.]{16}|[\d.]*[eE])\d[\d.]*(?:[eE][+-]?\d+)?)/g;

function safe(text: string): boolean {
  return (text.length <= 15 && !/[eE]/.test(text)) || isSafeNumber(text);
}

function exactNumber(text: string): number | string {
  return safe(text) ? Number(text) : text;
}

/**
 * The one JSON parser of tradeledger's wire data: no digit of a JSON number is ever lost.
 * Throws SyntaxError on malformed JSON.
 *
 * - `'exact'` (the API's response bodies, api/interpretResponse.ts): amounts are strings per the
 *   spec, but the wire can carry numbers; a number a double holds exactly stays a number, any
 *   other keeps its exact text as a string (`1.00000000000000001` -> "1.00000000000000001").
 *   When every number in the body is safe (the usual case) this is plain `JSON.parse`, which is
 *   much faster.
 * - `'text'` (the default: a feeDetail string, normalize/readFeeDetail.ts): every number keeps its
 *   original text, so `1.10` and `-8.9E-8` reach toDecimalString as written.
 *
 * @example
 * parseJsonLossless('{"a":12345678901234567890,"b":"1.5","c":2}', 'exact') // { a: '12345678901234567890', b: '1.5', c: 2 }
 * toDecimalString((parseJsonLossless('{"t":-8.9E-8}') as { t: unknown }).t) // { ok: true, value: '-0.000000089' }
 */
export function parseJsonLossless(text: string, numbers: JsonNumbers = 'text'): unknown {
  if (numbers === 'text') return parse(text);
  for (const m of text.matchAll(doubtfulNumber)) {
    if (!isSafeNumber(m[1] as string)) return parse(text, null, exactNumber);
  }
  return JSON.parse(text);
}
