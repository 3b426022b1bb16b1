import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { csvLines } from '../../src/reports/csvLines.js';

// Deterministic pseudo-random text, rich in the characters CSV must quote.
function rows(seed: number, count: number): (string | null)[][] {
  const alphabet = ['a', 'Z', '0', '9', '.', '-', ',', '"', '\n', '\r', ' ', 'é', ';', "'", '='];
  let x = seed;
  const next = () => { x = (x * 48271) % 2147483647; return x; };
  return Array.from({ length: count }, () => Array.from({ length: 1 + (next() % 6) }, () => {
    if (next() % 7 === 0) return null;
    return Array.from({ length: next() % 8 }, () => alphabet[next() % alphabet.length]).join('');
  }));
}

describe('csvLines', () => {
  it('writes exactly what csv-stringify writes, on plain and on tricky fields', () => {
    const sample = rows(7, 3000);
    expect(sample.some((r) => r.some((v) => v?.includes('"')))).toBe(true);
    expect(csvLines(sample)).toBe(stringify(sample));
    expect(csvLines(sample, false)).toBe(stringify(sample));
  });

  it('round-trips through a CSV parser, null as empty', () => {
    const text = csvLines([['12345678901234.123456789012', null, 'a,b', 'say "hi"', 'two\nlines', '']]);
    expect(text).toBe('12345678901234.123456789012,,"a,b","say ""hi""","two\nlines",\n');
    expect(parse(text)).toEqual([['12345678901234.123456789012', '', 'a,b', 'say "hi"', 'two\nlines', '']]);
  });
});
