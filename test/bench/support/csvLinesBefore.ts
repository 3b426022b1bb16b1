// streamQueryToCsv and csvLines as they were before issue 24 item 4 (commit edfd573), kept so
// reportLedger.bench.ts can pair the old writer with the new one in the same run.
import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafeCell } from '../../../src/reports/spreadsheetSafeCell.js';

// A field needs quoting under csv-stringify's defaults only if it holds one of these.
const needsQuoting = /[",\r\n]/;

/** Counts the cells {@link csvLines} neutralised, across calls. */
export interface CsvTally {
  neutralised: number;
}

/**
 * Formats rows of text (or null) as CSV lines, byte-identical to csv-stringify's default output,
 * after making every cell safe to open in a spreadsheet (see spreadsheetSafeCell: a text cell
 * that would run as a formula gets a leading `'`; `tally.neutralised` counts them). Every CSV the
 * project writes goes through here, so no report can skip that rule.
 * csv-stringify formats every row that needs quoting; a row of plain fields (most ledger rows:
 * ids, coins, decimal amounts, timestamps) is joined directly, because csv-stringify's per-field
 * cost would otherwise make writing the file three times slower than PostgreSQL's own COPY.
 * test/reports/csvLines.test.ts checks the two paths agree.
 *
 * @example
 * csvLines([['a', null, '1.5'], ['x,y', 'say "hi"', '']]); // 'a,,1.5\n"x,y","say ""hi""",\n'
 * csvLines([['=1+2', '-3']]);                                // "'=1+2,-3\n"
 */
export function csvLines(rows: readonly (readonly (string | null)[])[], fastPath = true, tally?: CsvTally): string {
  let out = '';
  for (const given of rows) {
    const row = safeRow(given, tally);
    if (!fastPath) { out += stringify([row as (string | null)[]]); continue; }
    let plain = true;
    for (const value of row) {
      if (value !== null && needsQuoting.test(value)) { plain = false; break; }
    }
    out += plain ? `${row.map((v) => v ?? '').join(',')}\n` : stringify([row as (string | null)[]]);
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
