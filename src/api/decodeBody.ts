import { isSafeNumber, parse as parseLossless } from 'lossless-json';

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
 * Parses a response body without losing any digit of a JSON number. Amounts are strings per the
 * spec, but the wire can carry numbers: a number a double holds exactly stays a number, any other
 * keeps its exact text as a string (`1.00000000000000001` -> "1.00000000000000001"). When every
 * number in the body is safe (the usual case) this is plain `JSON.parse`, which is much faster.
 * Throws SyntaxError on malformed JSON.
 *
 * @example
 * decodeBody('{"a":12345678901234567890,"b":"1.5","c":2}') // { a: '12345678901234567890', b: '1.5', c: 2 }
 */
export function decodeBody(text: string): unknown {
  for (const m of text.matchAll(doubtfulNumber)) {
    if (!isSafeNumber(m[1] as string)) return parseLossless(text, null, exactNumber);
  }
  return JSON.parse(text);
}
