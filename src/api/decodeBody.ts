import { isSafeNumber, parse as parseLossless } from 'lossless-json';

/**
 * Every place a JSON number can start: after `:`, `[` or `,` (plus whitespace). It also hits
 * digits inside strings such as "12:30"; those false hits only cost the slower exact parse.
 */
const numberCandidate = /[:[,]\s*(-?\d[\d.eE+-]*)/g;

/** 15 significant digits always survive a double, so short plain literals need no closer look. */
function safe(text: string): boolean {
  return (text.length <= 16 && !/[eE]/.test(text)) || isSafeNumber(text);
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
  let allSafe = true;
  for (const m of text.matchAll(numberCandidate)) {
    if (!safe(m[1] as string)) {
      allSafe = false;
      break;
    }
  }
  return allSafe ? JSON.parse(text) : parseLossless(text, null, exactNumber);
}
