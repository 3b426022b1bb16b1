import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafeCell } from './spreadsheetSafeCell.js';

// A field needs quoting under csv-stringify's defaults only if it holds one of these.
const needsQuoting = /[",\r\n]/;
const quote = /"/g;

/** Counts the cells {@link csvLines} neutralised, across calls. */
export interface CsvTally {
  neutralised: number;
}

/**
 * Formats rows of text (or null) as CSV lines, byte-identical to csv-stringify's default output,
 * after making every cell safe to open in a spreadsheet (see spreadsheetSafeCell: a text cell
 * that would run as a formula gets a leading `'`; `tally.neutralised` counts them). Every CSV the
 * project writes goes through here or through the COPY path of streamQueryToCsv, which applies
 * the same rule in SQL, so no report can skip it.
 * Each line is built in one pass over its cells: a cell is looked at once for a formula start and
 * once for a character that needs quoting, and quoted here (a field in double quotes, inner
 * quotes doubled: csv-stringify's rule), so no row takes a detour through csv-stringify or a copy
 * of itself. `fastPath` false sends every row through csv-stringify instead (same bytes; kept for
 * tests and the benchmark). test/reports/csvLines.test.ts checks the two agree.
 *
 * @example
 * csvLines([['a', null, '1.5'], ['x,y', 'say "hi"', '']]); // 'a,,1.5\n"x,y","say ""hi""",\n'
 * csvLines([['=1+2', '-3']]);                                // "'=1+2,-3\n"
 */
export function csvLines(rows: readonly (readonly (string | null)[])[], fastPath = true, tally?: CsvTally): string {
  let out = '';
  if (!fastPath) {
    for (const given of rows) out += stringify([safeRow(given, tally) as (string | null)[]]);
    return out;
  }
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) {
      let value = row[i];
      if (i > 0) line += ',';
      if (value === null || value === undefined || value === '') continue;
      if (mayBeFormula(value.charCodeAt(0))) {
        const safe = spreadsheetSafeCell(value);
        if (safe !== value) {
          value = safe;
          if (tally) tally.neutralised++;
        }
      }
      line += needsQuoting.test(value) ? `"${value.replace(quote, '""')}"` : value;
    }
    out += `${line}\n`;
  }
  return out;
}

// Copies the row only when a cell changes: most rows have none to neutralise.
function safeRow(row: readonly (string | null)[], tally: CsvTally | undefined): readonly (string | null)[] {
  let copy: (string | null)[] | undefined;
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    if (value === null || value === undefined || value === '' || !mayBeFormula(value.charCodeAt(0))) continue;
    const safe = spreadsheetSafeCell(value);
    if (safe !== value) {
      copy ??= [...row];
      copy[i] = safe;
      if (tally) tally.neutralised++;
    }
  }
  return copy ?? row;
}

// '=', '+', '-', '@', tab, CR, NUL: a cheap first look, so most cells skip the full check.
function mayBeFormula(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 || c === 0;
}
