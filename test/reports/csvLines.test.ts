import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { csvLines } from '../../src/reports/csvLines.js';
import { spreadsheetSafeCell } from '../../src/reports/spreadsheetSafeCell.js';

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
    const safe = sample.map((r) => r.map((v) => (v === null ? null : spreadsheetSafeCell(v))));
    expect(csvLines(sample)).toBe(stringify(safe));
    expect(csvLines(sample, false)).toBe(stringify(safe));
  });

  it('round-trips through a CSV parser, null as empty', () => {
    const text = csvLines([['12345678901234.123456789012', null, 'a,b', 'say "hi"', 'two\nlines', '']]);
    expect(text).toBe('12345678901234.123456789012,,"a,b","say ""hi""","two\nlines",\n');
    expect(parse(text)).toEqual([['12345678901234.123456789012', '', 'a,b', 'say "hi"', 'two\nlines', '']]);
  });

  it('neutralises formula-like text with a leading quote, counts it, and leaves numbers alone', () => {
    const tally = { neutralised: 0 };
    const text = csvLines([
      ['=HYPERLINK("http://x","y")', '+oid', '@SUM(A1)', '-2+3', '\tx', '\rx', '-'],
      ['-1.5', '+3', '-1e5', '2.5E-7', '-0.00000001', 'a=b', ''],
    ], true, tally);
    expect(parse(text, { relax_column_count: true })).toEqual([
      ['\'=HYPERLINK("http://x","y")', "'+oid", "'@SUM(A1)", "'-2+3", "'\tx", "'\rx", "'-"],
      ['-1.5', '+3', '-1e5', '2.5E-7', '-0.00000001', 'a=b', ''],
    ]);
    expect(tally.neutralised).toBe(7);
  });
});
