import { parse } from 'csv-parse/sync';
import { CsvError, parse as parseStream } from 'csv-parse';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TradeledgerError } from '../errors.js';
import { badInput } from './badInput.js';

/** One data line of a CSV file: its fields and the 1-based line it starts on. */
export interface CsvRow {
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * Splits a CSV file into its header and rows (RFC 4180 quoting, a BOM and CRLF allowed, blank
 * lines skipped). A malformed file (an unclosed quote, say) is refused naming file and line.
 *
 * @example
 * const { header, rows } = csvRows('rates.csv', text); // rows[0].line === 2
 */
export function csvRows(file: string, text: string): { header: readonly string[]; rows: CsvRow[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as typeof records;
  } catch (err) {
    const line = err instanceof CsvError ? Number((err as unknown as { lines?: number }).lines ?? 0) : 0;
    throw badInput({ file, line }, `not a readable CSV file (${err instanceof Error ? err.message : String(err)})`, 'Save the file as comma-separated values (CSV) and import it again.');
  }
  if (records.length === 0) throw badInput({ file, line: 1 }, 'the file is empty', 'Import the CSV file with its header line.');
  const [head, ...rest] = records;
  return {
    header: head!.record,
    rows: rest.map((r) => ({ line: r.info.lines, fields: r.record })),
  };
}

/**
 * The rows of a CSV text arriving in pieces (see fileText), one at a time, the header first:
 * memory holds a piece and a row, whatever the file's size. The parsing rules and the refusal
 * of a malformed file are csvRows's, except that every row keeps all its fields (a row's count
 * is its reader's to check) and an empty file is refused.
 *
 * @example
 * for await (const row of csvStream('k.csv', fileText(src))) ...
 */
export async function* csvStream(file: string, pieces: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  const parser = parseStream({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 4 << 20 });
  const feed = pipeline(Readable.from(pieces, { objectMode: false }), parser).catch(() => {}); // errors reach the loop below
  let any = false;
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      any = true;
      yield { line: r.info.lines, fields: r.record };
    }
  } catch (err) {
    if (err instanceof TradeledgerError) throw err;
    const line = err instanceof CsvError ? Number((err as unknown as { lines?: number }).lines ?? 0) : 0;
    throw badInput({ file, line }, `not a readable CSV file (${err instanceof Error ? err.message : String(err)})`, 'Save the file as comma-separated values (CSV) and import it again.');
  } finally {
    parser.destroy();
    await feed;
  }
  if (!any) throw badInput({ file, line: 1 }, 'the file is empty', 'Import the CSV file with its header line.');
}
