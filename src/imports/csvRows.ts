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
 * Plain lines (no double quote, no carriage return but the one of a CRLF line end) are split
 * here, as csv-parse splits them with these options: fields cut at each comma, leading spaces,
 * tabs and form feeds dropped, trailing white space dropped, a line of nothing but those
 * skipped. From the first line that is not plain, csv-parse reads the rest, first handed as
 * many line ends as lines came before, so that its line numbers, in rows and in errors, are the
 * file's (test/imports/csvStream.test.ts compares the two on awkward files). csv-parse's
 * records with their `info` were most of an import's time in Node (issue 24).
 *
 * @example
 * for await (const row of csvStream('k.csv', fileText(src))) ...
 */
export async function* csvStream(file: string, pieces: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  for await (const rows of csvBatches(file, pieces)) yield* rows;
}

/**
 * csvStream's rows a piece at a time (the rows of one piece of plain lines; one row at a time
 * once csv-parse reads): the importer's loop then awaits once per piece, not once per row.
 *
 * @example
 * for await (const rows of csvBatches('k.csv', fileText(src))) for (const row of rows) ...
 */
export async function* csvBatches(file: string, pieces: AsyncIterable<string>): AsyncGenerator<readonly CsvRow[]> {
  const it = pieces[Symbol.asyncIterator]();
  try {
    let any = false;
    let line = 1; // the line the next character is on
    let eol: '\n' | '\r\n' | null = null; // the line end, once the first line has shown it
    let rest: string | null = null; // text from the start of the first piece that is not all plain
    let carry: string[] = []; // a line not yet ended by \n (pieces from fileText end at one; others need not)
    let first = true;
    let done = false;
    while (!done && rest === null) {
      const next = await it.next();
      let piece: string;
      if (next.done) {
        done = true;
        piece = carry.join('');
      } else if (next.value.indexOf('\n') < 0 && carry.length > 0) {
        carry.push(next.value); // still the same line: joined once it ends
        continue;
      } else {
        piece = carry.length === 0 ? next.value : carry.join('') + next.value;
        if (first) {
          first = false;
          if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
        }
      }
      carry = [];
      // A piece's rows are yielded once every line of it is plain; otherwise csv-parse reads
      // from the piece's first line, so that it meets the piece as it did before (a refusal in a
      // piece comes before any row of that piece, as csv-parse's stream gives it).
      const start = line;
      const startEol = eol;
      let handOff = false;
      const rows: CsvRow[] = [];
      let at = 0;
      // The next CR and double quote in the piece, found once per piece and again only past
      // them: a search per line ran to the end of the piece when it held none (quadratic; the
      // check was a tenth of the CLI's CPU profile, issue 24).
      let cr = -2;
      let quote = -2;
      while (at < piece.length) {
        const nl = piece.indexOf('\n', at);
        if (nl < 0 && !done) {
          carry = [piece.slice(at)];
          break;
        }
        const end = nl < 0 ? piece.length : nl;
        if (cr !== -1 && cr < at) cr = piece.indexOf('\r', at);
        if (quote !== -1 && quote < at) quote = piece.indexOf('"', at);
        const plain = plainLine(piece, at, end, nl >= 0, eol, cr, quote);
        if (plain === null) {
          handOff = true;
          break;
        }
        if (eol === null && nl >= 0) eol = plain.crlf ? '\r\n' : '\n';
        if (plain.fields !== null) rows.push({ line, fields: plain.fields });
        line++;
        at = end + 1;
      }
      if (handOff) {
        // Back to the piece's start: csv-parse reads all of it (what was carried is in it).
        rest = piece;
        carry = [];
        line = start;
        eol = startEol;
        break;
      }
      if (rows.length > 0) {
        any = true;
        yield rows;
      }
    }
    if (rest !== null) {
      // The line ends before `rest`, handed to csv-parse as empty lines it skips and counts.
      const lead = line === 1 ? '' : (eol ?? '\n').repeat(line - 1);
      const tail = rest;
      const text = async function* () {
        if (lead !== '') yield lead;
        yield tail;
        for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
      };
      for await (const row of csvParseStream(file, text())) {
        any = true;
        yield [row];
      }
    }
    if (!any) throw badInput({ file, line: 1 }, 'the file is empty', 'Import the CSV file with its header line.');
  } finally {
    await it.return?.();
  }
}

// Characters csv-parse's `trim` drops before a field (its own list) and that make a line empty.
const isLeadSpace = (ch: number) => ch === 0x20 || ch === 0x09 || ch === 0x0c;
// A line longer than this is left to csv-parse (its record size limit and message).
const PLAIN_MAX = 1 << 19;

/**
 * The fields of the line text[start, end) if it is plain (null fields: a line csv-parse skips
 * as empty), or null if csv-parse must read it. `ended`: a \n follows the line; `cr`, `quote`:
 * the first CR and double quote at or after `start` (-1: none).
 */
function plainLine(text: string, start: number, end: number, ended: boolean, eol: '\n' | '\r\n' | null, cr: number, quote: number): { fields: string[] | null; crlf: boolean } | null {
  if (end - start > PLAIN_MAX) return null;
  let stop = end;
  const crlf = cr >= 0 && cr < end;
  if (crlf) {
    // Only a CRLF line end, in a file whose lines end so (its first line decides, as csv-parse's does).
    if (cr !== end - 1 || !ended || eol === '\n') return null;
    stop = end - 1;
  } else if (ended && eol === '\r\n') {
    return null; // a bare \n in a CRLF file is part of a field for csv-parse
  }
  if (quote >= 0 && quote < stop) return null;
  let blank = true;
  for (let i = start; i < stop; i++) {
    if (!isLeadSpace(text.charCodeAt(i))) { blank = false; break; }
  }
  if (blank) return { fields: null, crlf };
  const fields: string[] = [];
  let from = start;
  for (;;) {
    const comma = text.indexOf(',', from);
    const to = comma < 0 || comma >= stop ? stop : comma;
    let a = from;
    while (a < to && isLeadSpace(text.charCodeAt(a))) a++;
    fields.push(text.slice(a, to).trimEnd());
    if (to === stop) break;
    from = to + 1;
  }
  return { fields, crlf };
}

/** csv-parse over text pieces, its records with their line, its errors as csvRows's refusal. */
async function* csvParseStream(file: string, pieces: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  const parser = parseStream({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 4 << 20 });
  const feed = pipeline(Readable.from(pieces, { objectMode: false }), parser).catch(() => {}); // errors reach the loop below
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
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
}
