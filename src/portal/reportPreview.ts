import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { defaultReportsDir } from '../reports/runReports.js';
import type { ReportRequest } from './reportRequest.js';
import { queryOf } from './reportRequest.js';

/** The first rows of one report file, as text exactly as the CSV would hold them. */
export interface ReportPreview {
  columns: string[];
  rows: (string | null)[][];
  /** True when the file has more rows than shown. */
  more: boolean;
}

const asText: pg.CustomTypesConfig = { getTypeParser: (() => (value: string) => value) as pg.CustomTypesConfig['getTypeParser'] };

/**
 * Runs a report's own query from reports/ with a LIMIT, so the preview shows the same values the
 * download holds, without reading the whole period.
 *
 * @example
 * const { columns, rows } = await reportPreview(pool, request, 20);
 */
export async function reportPreview(pool: pg.Pool, request: ReportRequest, limit: number, reportsDir = defaultReportsDir): Promise<ReportPreview> {
  const sql = await readFile(path.join(reportsDir, `${queryOf(request.format, request.file)}.sql`), 'utf8');
  const { period, account } = request;
  const bound = bindNamedParameters(sql, { from: period.from, to: period.to, tz: period.tz, account });
  const result = await pool.query({
    text: `SELECT * FROM (\n${bound.text}\n) AS report LIMIT ${limit + 1}`, values: bound.values, rowMode: 'array', types: asText,
  });
  const rows = result.rows as (string | null)[][];
  return { columns: result.fields.map((f) => f.name), rows: rows.slice(0, limit), more: rows.length > limit };
}
