import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { defaultReportsDir } from '../reports/runReports.js';
import { spreadsheetSafeCell } from '../reports/spreadsheetSafeCell.js';
import type { ReportRequest } from './reportRequest.js';
import { queryOf } from './reportRequest.js';
import { localTimestamp } from '../normalize/calendarDate.js';
import { periodBounds } from '../reports/runReports.js';

/** The first rows of one report file, as text exactly as the CSV would hold them. */
export interface ReportPreview {
  columns: string[];
  rows: (string | null)[][];
  /** True when the file has more rows than shown. */
  more: boolean;
}

const asText: pg.CustomTypesConfig = { getTypeParser: (() => (value: string) => value) as pg.CustomTypesConfig['getTypeParser'] };

// Files whose rows are filtered to [from, to) and ordered by time first: the first rows of a
// shorter period starting at `from` are the first rows of the whole period, as long as the
// shorter one has more rows than are shown. The others (balances at `to`, reconciliation,
// data-quality ordered by kind) always run over the whole period.
// test/portal/reportPreview.test.ts checks this against the full files of every format.
const timeOrdered = new Set(['ledger', 'trades', 'margin-records', 'futures-pnl', 'deposits-withdrawals', 'transfers', 'fees',
  'koinly', 'cointracking', 'cointracker', 'ctc']);

// Widening windows from `from`, in minutes (ten minutes, an hour, a day, a week, a month, a
// quarter), before the whole period. A busy account holds thousands of rows an hour; a quiet one
// costs a few more index-range queries. The first window is short so that PostgreSQL joins a
// window's spot fees to their fills through the fills' key, one lookup per fee: with an hour of a
// fill a second (3,600 fees) it hash-joins every fill of the account instead (BENCHMARKS.md, Portal).
const windowMinutes = [10, 60, 1440, 10_080, 44_640, 132_480];


/**
 * Runs a report's own query from reports/ with a LIMIT, so the preview shows the same values the
 * download holds. A year of a busy account would have to be sorted in full for its first rows, so
 * time-ordered files are read over ten minutes, an hour, a day, a week, a month, a quarter from `from` first, and over
 * the whole period only when those hold too few rows.
 *
 * @example
 * const { columns, rows } = await reportPreview(pool, request, 20);
 */
export async function reportPreview(pool: pg.Pool, request: ReportRequest, limit: number, reportsDir = defaultReportsDir): Promise<ReportPreview> {
  const query = queryOf(request.format, request.file);
  const sql = await readFile(path.join(reportsDir, `${query}.sql`), 'utf8');
  const { period, account, fiat, includeDemo } = request;
  await periodBounds(pool, period); // a period after today: refused, as the download refuses it
  const whole = `${period.to} 00:00:00`;
  const ends = timeOrdered.has(query)
    ? [...windowMinutes.map((m) => localTimestamp(period.from, m)).filter((end) => end < whole), period.to]
    : [period.to];
  for (const to of ends) {
    const bound = bindNamedParameters(sql, { from: period.from, to, tz: period.tz, account, fiat, include_demo: String(includeDemo) });
    const result = await pool.query({
      text: `SELECT * FROM (\n${bound.text}\n) AS report LIMIT ${limit + 1}`, values: bound.values, rowMode: 'array', types: asText,
    });
    const rows = result.rows as (string | null)[][];
    if (rows.length > limit || to === period.to) {
      // As the CSV holds them: a formula-like text cell with its leading ' (csvLines does the same).
      const shown = rows.slice(0, limit).map((row) => row.map((v) => (v === null ? v : spreadsheetSafeCell(v))));
      return { columns: result.fields.map((f) => f.name), rows: shown, more: rows.length > limit };
    }
  }
  throw new Error('unreachable: the last window is the whole period');
}
