import { describe, expect, it } from 'vitest';
import { CsvGuard } from '../../src/reports/csvGuard.js';
import { csvLines } from '../../src/reports/csvLines.js';

// CsvGuard turns PostgreSQL's CSV into csvLines' bytes. It takes two routes (a fast scan for
// chunks without a quote, the byte-by-byte state machine for the others) and a cell can span any
// chunk boundary, so these tests cut the same bytes every way and hold each result to csvLines.

// PostgreSQL's CSV rules (COPY ... FORMAT csv): NULL unquoted and empty; the empty string as "";
// a value holding a quote, comma, CR or LF quoted, inner quotes doubled.
function pgCsv(rows: readonly (readonly (string | null)[])[]): string {
  const cell = (v: string | null) => (v === null ? '' : v === '' || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((r) => `${r.map(cell).join(',')}\n`).join('');
}

function rows(seed: number, count: number): (string | null)[][] {
  const alphabet = ['a', '0', '9', '.', '-', '+', '=', '@', '\t', '\r', '\n', ',', '"', 'é', 'e', 'E', '5'];
  let x = seed;
  const next = () => { x = (x * 48271) % 2147483647; return x; };
  return Array.from({ length: count }, () => Array.from({ length: 1 + (next() % 5) }, () => {
    if (next() % 10 === 0) return null;
    return Array.from({ length: next() % 7 }, () => alphabet[next() % alphabet.length]).join('');
  }));
}

async function guard(chunks: Buffer[]): Promise<{ text: string; neutralised: number; bytes: number }> {
  const g = new CsvGuard();
  const out: Buffer[] = [];
  g.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise<void>((resolve, reject) => { g.on('end', resolve); g.on('error', reject); });
  for (const chunk of chunks) g.write(chunk);
  g.end();
  await ended;
  return { text: Buffer.concat(out).toString('utf8'), neutralised: g.neutralised, bytes: g.bytes };
}

function cut(bytes: Buffer, at: readonly number[]): Buffer[] {
  const edges = [0, ...at, bytes.length];
  return edges.slice(1).map((end, i) => Buffer.from(bytes.subarray(edges[i], end)));
}

describe('CsvGuard', () => {
  it('writes what csvLines writes, with the same count, however the bytes are cut', async () => {
    const sample = [
      ...rows(3, 400),
      ['-1.5', '+3', '-1e5', '2.5E-7', '.5', '5.', '-', '+.', '1e', '=1+2', '@x', '\tx', '-2025-01-01', '', null],
      ['plain', 'no quotes', 'in', 'this', 'row', '-7', '=x'],
    ];
    const tally = { neutralised: 0 };
    const expected = csvLines(sample, true, tally);
    expect(tally.neutralised).toBeGreaterThan(100);
    const bytes = Buffer.from(pgCsv(sample), 'utf8');
    let x = 5;
    const next = () => { x = (x * 48271) % 2147483647; return x; };
    for (const piece of [1, 2, 3, 5, 16, 64, 1000, bytes.length]) {
      const at: number[] = [];
      for (let i = 1 + (next() % piece); i < bytes.length; i += 1 + (next() % piece)) at.push(i);
      const result = await guard(cut(bytes, at));
      expect(result.text, `pieces up to ${piece} bytes`).toBe(expected);
      expect(result.neutralised).toBe(tally.neutralised);
      expect(result.bytes).toBe(Buffer.byteLength(expected));
    }
  });

  it('keeps every cell whole at every single cut of a quote-free and a quoted file', async () => {
    const files = [
      [['-12.5', '=cmd', 'x', '+1e5'], ['-', '@a', '-0.000000178', 'trade_sell'], ['2025-01-01', '-3e', '9', '=']],
      [['"=q"', '-1', 'a,b'], ['', '-x', 'say "hi"'], ['+', 'two\nlines', '=1']],
    ];
    for (const sample of files) {
      const tally = { neutralised: 0 };
      const expected = csvLines(sample, true, tally);
      const bytes = Buffer.from(pgCsv(sample), 'utf8');
      for (let at = 1; at < bytes.length; at++) {
        for (const second of [at + 1, at + 3]) {
          const result = await guard(cut(bytes, second < bytes.length ? [at, second] : [at]));
          expect(result.text, `cut at ${at}, ${second}`).toBe(expected);
          expect(result.neutralised).toBe(tally.neutralised);
        }
      }
    }
  });
});
