import { stringify } from 'csv-stringify/sync';

// A field needs quoting under csv-stringify's defaults only if it holds one of these.
const needsQuoting = /[",\r\n]/;

/**
 * Formats rows of text (or null) as CSV lines, byte-identical to csv-stringify's default output.
 * csv-stringify formats every row that needs quoting; a row of plain fields (most ledger rows:
 * ids, coins, decimal amounts, timestamps) is joined directly, because csv-stringify's per-field
 * cost would otherwise make writing the file three times slower than PostgreSQL's own COPY.
 * test/reports/csvLines.test.ts checks the two paths agree.
 *
 * @example
 * csvLines([['a', null, '1.5'], ['x,y', 'say "hi"', '']]); // 'a,,1.5\n"x,y","say ""hi""",\n'
 */
export function csvLines(rows: readonly (readonly (string | null)[])[], fastPath = true): string {
  if (!fastPath) return stringify(rows as (string | null)[][]);
  let out = '';
  for (const row of rows) {
    let plain = true;
    for (const value of row) {
      if (value !== null && needsQuoting.test(value)) { plain = false; break; }
    }
    out += plain ? `${row.map((v) => v ?? '').join(',')}\n` : stringify([row as (string | null)[]]);
  }
  return out;
}
