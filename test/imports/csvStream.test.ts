// Issue 24: csvStream splits plain lines itself and leaves the rest of a file to csv-parse from
// the first line that is not plain. Rows, line numbers and refusals must be exactly those of
// csv-parse reading the whole file, as csvStream did before: this compares the two on awkward
// files, in pieces of many sizes.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import { csvStream } from '../../src/imports/csvRows.js';
import { fileText } from '../../src/imports/fileText.js';
import { memoryFile } from '../support/memoryFile.js';

type Outcome = { rows: { line: number; fields: readonly string[] }[]; error?: string };

/** csv-parse alone over the same pieces, with csvStream's options: what csvStream gave before issue 24. */
async function oracle(pieces: AsyncIterable<string>): Promise<Outcome> {
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 4 << 20 });
  const feed = pipeline(Readable.from(pieces, { objectMode: false }), parser).catch(() => {});
  const rows: Outcome['rows'] = [];
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) rows.push({ line: r.info.lines, fields: r.record });
  } catch (err) {
    const line = err instanceof CsvError ? Number((err as unknown as { lines?: number }).lines ?? 0) : 0;
    return { rows, error: `k.csv line ${line}: not a readable CSV file (${(err as Error).message}); nothing was imported` };
  } finally {
    await feed;
  }
  if (rows.length === 0) return { rows, error: 'k.csv line 1: the file is empty; nothing was imported' };
  return { rows };
}

async function actual(pieces: AsyncIterable<string>): Promise<Outcome> {
  const rows: Outcome['rows'] = [];
  try {
    for await (const r of csvStream('k.csv', pieces)) rows.push(r);
  } catch (err) {
    return { rows, error: (err as Error).message };
  }
  return { rows };
}

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

const plain = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `2024-01-01 00:00 UTC,${i}.5,BTC,,, note ${i} ,0x${i}`).join(eol);
const FILES: [string, string][] = [
  ['plain LF', `Date,A,B\n${plain(5)}\n`],
  ['plain CRLF, no final line end', `Date,A,B\r\n${plain(5, '\r\n')}`],
  ['a BOM, blank and white lines', `\uFEFFDate,A\n\n   \n\t\f\n1,2\n \v \n,\n a , b ,\u00a0c\u00a0,\u2003d\u2003\n\n`],
  ['trailing commas and empty fields', 'a,b,\n,,\n,\nx\n'],
  ['a quoted header', '"Date","A"\n1,2\n'],
  ['a quoted field with a line break late in the file', `Date,A,B\n${plain(40)}\n2024-01-02 00:00 UTC,"two\nlines, ""quoted""",x\n${plain(3)}\n`],
  ['a quoted CRLF field in a CRLF file', `Date,A\r\n${plain(3, '\r\n')}\r\n1,"a\r\nb"\r\n2,c\r\n`],
  ['a stray CR in an LF file', `Date,A\n${plain(3)}\n1,a\rb\n2,c\n`],
  ['a CRLF line in an LF file', `Date,A\n${plain(3)}\n1,a\r\n2,c\n`],
  ['a bare LF in a CRLF file', `Date,A\r\n${plain(3, '\r\n')}\r\n1,a\n2,c\r\n`],
  ['CR line ends', 'Date,A\r1,2\r3,4\r'],
  ['a CR in the first line', 'Da\rte,A\n1,2\n'],
  ['an unclosed quote late', `Date,A\n${plain(30)}\n1,"open\n2,3\n`],
  ['a quote inside a field', `Date,A\n${plain(10)}\n1,ab"c,d\n`],
  ['text after a closing quote', `Date,A\n${plain(4)}\n1,"a"b\n`],
  ['only white lines', '  \n\t\n'],
  ['nothing', ''],
  ['a header only, no line end', 'Date,A'],
  ['a last line of spaces, no line end', 'Date,A\n1,2\n   '],
  ['a line of a million characters', `Date,A\n1,${'x'.repeat(1_100_000)}\n2,3\n`],
];

describe('csvStream', () => {
  it.each(FILES)('reads %s as csv-parse does, in pieces of any size', async (_what, text) => {
    // (Pieces of a few characters for short files only: fileText's carry grows by copying.)
    for (const size of text.length > 100_000 ? [4096, 1 << 20] : [1, 2, 3, 7, 64, 1 << 20]) {
      // The same rows and lines, or the same refusal: how many rows come before a refusal
      // depends on how far csv-parse's stream has read ahead, so those are not compared.
      const same = (got: Outcome, want: Outcome, what: string) => {
        if (want.error === undefined) expect(got, what).toEqual(want);
        else expect(got.error, what).toBe(want.error);
      };
      // The file's pieces as the import reads them, and any pieces.
      same(await actual(fileText(memoryFile('k.csv', text, size))), await oracle(fileText(memoryFile('k.csv', text, size))), `fileText, chunks of ${size}`);
      same(await actual(chunked(text, size)), await oracle(chunked(text, 1 << 30)), `pieces of ${size}`);
    }
  });
});
