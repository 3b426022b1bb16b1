import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';
import { TradeledgerError } from '../errors.js';
import { bindNamedParameters } from './bindNamedParameters.js';
import { streamQueryToCsv } from './streamQueryToCsv.js';
import { reportFiles } from './reportFormats.js';
import type { ReportFormat } from './reportFormats.js';
import type { ReportPeriod } from './reportPeriod.js';
import { manifestFacts } from './reportManifest.js';
import { formatCoverage } from './formatCoverage.js';
import type { ManifestFile, ReportManifest } from './reportManifest.js';

/** The project's reports/ folder of queries. */
export const defaultReportsDir = fileURLToPath(new URL('../../reports/', import.meta.url));

/** Options for {@link runReports}. */
export interface RunReportsOptions {
  databaseUrl: string;
  period: ReportPeriod;
  format: ReportFormat;
  /** One account uid or imported wallet name; '' or undefined for all. */
  account?: string;
  /** ISO 4217 code the valued reports are in (valued-ledger.csv, Net Worth columns); default USD. */
  fiat?: string;
  /**
   * Output folder; default ./tradeledger-reports/<period label>/<format>, one folder per format so
   * that each manifest.json sits beside exactly the files it describes.
   */
  outDir?: string;
  reportsDir?: string;
  /** Called after each file is written. */
  onFile?: (file: ManifestFile) => void;
}

/** What a run wrote. */
export interface RunReportsResult {
  outDir: string;
  manifestPath: string;
  manifest: ReportManifest;
}

/**
 * Writes one format's CSVs and manifest.json for a period. All files are read in one
 * repeatable-read, read-only transaction, so they agree with each other even while a sync runs.
 *
 * @example
 * const { outDir, manifest } = await runReports({
 *   databaseUrl: url, format: 'koinly', period: reportPeriod({ year: '2025', tz: 'Asia/Tokyo' }),
 * });
 */
export async function runReports(options: RunReportsOptions): Promise<RunReportsResult> {
  const { period, format } = options;
  const account = options.account ?? '';
  const outDir = path.resolve(options.outDir ?? path.join('tradeledger-reports', period.label, format));
  const reportsDir = options.reportsDir ?? defaultReportsDir;
  const fiat = (options.fiat ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(fiat)) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `--fiat ${options.fiat} is not a currency code`, {
      kind: 'config', hint: 'Use an ISO 4217 code: USD, EUR, GBP, JPY ... (values other than USD need `tradeledger import fx`).',
    });
  }
  const params = { from: period.from, to: period.to, tz: period.tz, account, fiat };
  await mkdir(outDir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new TradeledgerError('REPORT_OUT_DIR', `cannot create the output folder ${outDir}: ${err.code ?? err.message}`, {
      kind: 'config', cause: err, hint: 'Pass --out with a folder you can write to.',
    });
  });

  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: 'tradeledger report' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const bounds = await periodBounds(client, period);
    const files: ManifestFile[] = [];
    for (const { query, file } of reportFiles(format)) {
      const sql = await readFile(path.join(reportsDir, `${query}.sql`), 'utf8');
      const result = await streamQueryToCsv(client, bindNamedParameters(sql, params), path.join(outDir, file)).catch((err: unknown) => {
        throw new TradeledgerError('REPORT_QUERY_FAILED', `reports/${query}.sql failed: ${err instanceof Error ? err.message : String(err)}`, {
          kind: 'database', cause: err, hint: 'Run `tradeledger db migrate`; if it persists, run the query in psql to see the full error.',
        });
      });
      const entry = { file, query: `reports/${query}.sql`, ...result };
      files.push(entry);
      options.onFile?.(entry);
    }
    const facts = await manifestFacts(client, account);
    const coverage = await formatCoverage(client, format, { ...bounds, account });
    await client.query('COMMIT');
    const manifest: ReportManifest = {
      generatedAt: new Date().toISOString(),
      parameters: { format, from: period.from, to: period.to, tz: period.tz, account, fiat, ...bounds },
      files,
      coverage,
      ...facts,
    };
    const manifestPath = path.join(outDir, 'manifest.json');
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    return { outDir, manifestPath, manifest };
  } finally {
    await client.end().catch(() => {});
  }
}

async function periodBounds(client: pg.Client, period: ReportPeriod): Promise<{ fromUtc: string; toUtc: string }> {
  try {
    const { rows } = await client.query<{ from_utc: string; to_utc: string }>(
      `SELECT to_char(($1::timestamp AT TIME ZONE $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS from_utc,
              to_char(($2::timestamp AT TIME ZONE $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS to_utc`,
      [period.from, period.to, period.tz]);
    return { fromUtc: rows[0]!.from_utc, toUtc: rows[0]!.to_utc };
  } catch (err) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `the database does not know the time zone "${period.tz}"`, {
      kind: 'config', cause: err, hint: 'Use a zone listed by: SELECT name FROM pg_timezone_names.',
    });
  }
}
