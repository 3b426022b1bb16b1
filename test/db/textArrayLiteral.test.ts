import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { textArrayLiteral } from '../../src/db/sqlText.js';

// node-postgres's own conversion of a JavaScript array parameter: textArrayLiteral must write the
// very same text, so the server reads the same bytes either way.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

describe('textArrayLiteral writes what node-postgres writes for an array of text', () => {
  it.each([
    ['empty', []],
    ['plain', ['1700000000000', '27000.5', 'BTCUSDT']],
    ['null and undefined', ['a', null, undefined, '']],
    ['quotes', ['["1700000000000","1.5"]', 'say "hi"']],
    ['backslashes', ['a\\b', '\\"', '"\\', '\\\\']],
    ['commas, braces, blanks, NULL as text', ['a,b', '{x}', ' ', 'NULL', 'null']],
    ['unicode', ['€', '😀', '\uFFFD', 'a\u0001b']],
  ])('%s', (_name, values) => {
    expect(textArrayLiteral(values)).toBe(prepareValue(values));
  });

  it('numbers written as their String(), as the gains store sends its int[] and bigint[] columns', () => {
    const values = [1, 0, -3, 1717200000123, 2 ** 53 - 1, null, undefined];
    expect(textArrayLiteral(values.map((v) => (v === null || v === undefined ? null : String(v))))).toBe(prepareValue(values));
  });

  it('random strings', () => {
    let seed = 3;
    const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const alphabet = ['a', '1', '.', '"', '\\', ',', '{', '}', ' ', 'é'];
    for (let i = 0; i < 2000; i++) {
      const values = Array.from({ length: Math.floor(rand() * 6) }, () => (rand() < 0.1 ? null
        : Array.from({ length: Math.floor(rand() * 8) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')));
      expect(textArrayLiteral(values)).toBe(prepareValue(values));
    }
  });
});
