import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type pg from 'pg';
import { createClient } from '../db/pools.js';
import { TradeledgerError } from '../errors.js';
import { databaseError } from '../db/databaseError.js';
import { cancelOnAbort } from '../db/cancelOnAbort.js';
import { isConnectionProblem, sessionRefusal } from '../db/connectionProblem.js';
import { bindNamedParameters } from './bindNamedParameters.js';
import { streamQueryToCsv } from './streamQueryToCsv.js';
import { reportFiles } from './reportFormats.js';
import type { ReportFormat } from './reportFormats.js';
import type { ReportPeriod } from './reportPeriod.js';
import { manifestFacts } from './reportManifest.js';
import { claimReportOutput, fileWriteError, reportOutput } from './reportOutput.js';
import type { ReportOutput } from './reportOutput.js';
import { checkReportAccount } from './checkReportAccount.js';
import { formatCoverage } from './formatCoverage.js';
import { demoTreatment, readDemoAccounts } from './demoAccounts.js';
import type { ManifestFile, ReportManifest } from './reportManifest.js';
import { withoutJit } from '../db/withoutJit.js';
import { isFiatCode } from '../imports/currencyCodes.js';

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
   * that each manifest.json sits beside exactly the files it describes; when that folder exists
   * already, <period label>-2/<format> (then -3, ...), so a default run never collides.
   */
  outDir?: string;
  reportsDir?: string;
  /** Replace files already in the output folder (default: refuse, naming them). */
  force?: boolean;
  /**
   * Put demo-trading (paper) accounts' rows into the tax-tool files (`--include-demo`), valued 0.
   * Default false: they are left out, and the manifest names them. Native CSVs always keep them, marked.
   */
  includeDemo?: boolean;
  /**
   * Called as each file (manifest.json last) starts, with the temporary path it is being written
   * to until the run commits and renames it: a caller can stream it while it grows (the portal's zip).
   */
  onFileStart?: (file: string, temporaryPath: string) => void;
  /** Called after each file is written. */
  onFile?: (file: ManifestFile) => void;
  /** The connection's name (src/db/pools.ts): `tradeledger-<name>` in pg_stat_activity; default 'report'. */
  connectionName?: string;
  /** Aborting cancels the running query and ends the connection at once; the run fails and leaves no files. */
  signal?: AbortSignal;
}

/** What a run wrote. */
export interface RunReportsResult {
  outDir: string;
  manifestPath: string;
  manifest: ReportManifest;
}

/**
 * --fiat of a report, upper-cased, or a REPORT_BAD_FLAG naming it when it is no ISO 4217 code
 * (checked by `report` before it opens a database, and by runReports).
 *
 * @example
 * reportFiat('gbp'); // 'GBP'
 */
export function reportFiat(fiat: string | undefined): string {
  const code = (fiat ?? 'USD').toUpperCase();
  if (!isFiatCode(code)) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `--fiat ${fiat} is not an ISO 4217 currency code`, {
      kind: 'config', hint: 'Use an ISO 4217 code: USD, EUR, GBP, JPY ... (values other than USD need `tradeledger import fx`).',
    });
  }
  return code;
}

/**
 * Writes one format's CSVs and manifest.json for a period. All files are read in one
 * repeatable-read, read-only transaction, so they agree with each other even while a sync runs.
 * Nothing already there is harmed: an unknown account is refused before the folder is touched,
 * existing files need `force`, symlinked targets are refused, and every file is written under a
 * temporary name and renamed into place only once all of them are complete (see reportOutput).
 *
 * @example
 * const { outDir, manifest } = await runReports({
 *   databaseUrl: url, format: 'koinly', period: reportPeriod({ year: '2025', tz: 'Asia/Tokyo' }),
 * });
 */
export async function runReports(options: RunReportsOptions): Promise<RunReportsResult> {
  const { period, format } = options;
  const account = options.account ?? '';
  const reportsDir = options.reportsDir ?? defaultReportsDir;
  const fiat = reportFiat(options.fiat);
  const includeDemo = options.includeDemo ?? false;
  const params = { from: period.from, to: period.to, tz: period.tz, account, fiat, include_demo: String(includeDemo) };
  const files = reportFiles(format);

  const client = createClient({ url: options.databaseUrl, name: options.connectionName ?? 'report' }); // a lost connection: reported by the failing query
  const detach = cancelOnAbort([client], options.signal);
  let output: ReportOutput | undefined;
  try {
    options.signal?.throwIfAborted();
    await client.connect().catch((err: unknown) => { throw databaseError(err, options.databaseUrl); });
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // Without JIT (copyPlan's LIMIT 0 column probes included): `report --year 2025` at 1M synced
    // records 96 -> 77 s, files byte-identical.
    await client.query(withoutJit);
    // Checked before the folder is touched: an unknown account must not replace a good report
    // with empty files.
    await checkReportAccount(client, account);
    const bounds = await periodBounds(client, period);
    const names = [...files.map((f) => f.file), 'manifest.json'];
    // The default folder is claimed (made by this run), so two runs started together never share it.
    output = options.outDir !== undefined
      ? await reportOutput(options.outDir, names, options.force ?? false)
      : await claimReportOutput(path.join('tradeledger-reports', period.label), [format], names);
    const outDir = output.dir;
    const written: ManifestFile[] = [];
    for (const { query, file } of files) {
      const sql = await readFile(path.join(reportsDir, `${query}.sql`), 'utf8');
      options.onFileStart?.(file, output.temporary(file));
      const result = await streamQueryToCsv(client, bindNamedParameters(sql, params), output.temporary(file), { flags: 'wx' }).catch((err: unknown) => {
        const written = fileWriteError(err, file, outDir);
        if (written !== err) throw written;
        if (isConnectionProblem(err)) throw err; // main.ts: "lost the connection to PostgreSQL", not "run db migrate"
        if (sessionRefusal(err) !== undefined) throw err; // main.ts: what the server refused (a statement_timeout), not "run db migrate"
        throw new TradeledgerError('REPORT_QUERY_FAILED', `reports/${query}.sql failed: ${err instanceof Error ? err.message : String(err)}`, {
          kind: 'database', cause: err, details: { pgCode: (err as { code?: string }).code }, hint: 'Run `tradeledger db migrate`; if it persists, run the query in psql to see the full error.',
        });
      });
      const entry = { file, query: `reports/${query}.sql`, ...result };
      written.push(entry);
      options.onFile?.(entry);
    }
    const reflected = await correctionsReflected(client, bounds, account, includeDemo);
    for (const entry of written) entry.corrections = reflected(entry.query);
    const facts = await manifestFacts(client, account);
    const coverage = await formatCoverage(client, format, { ...bounds, account, includeDemo: includeDemo || format === 'native' });
    const demo = { included: includeDemo, treatment: demoTreatment(format, includeDemo), accounts: await readDemoAccounts(client, account) };
    await client.query('COMMIT');
    const manifest: ReportManifest = {
      generatedAt: new Date().toISOString(),
      parameters: { format, from: period.from, to: period.to, tz: period.tz, account, fiat, includeDemo, ...bounds },
      files: written,
      coverage,
      demo,
      ...facts,
    };
    options.onFileStart?.('manifest.json', output.temporary('manifest.json'));
    await writeFile(output.temporary('manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' }).catch((err: unknown) => { throw fileWriteError(err, 'manifest.json', outDir); });
    await output.commit();
    return { outDir: output.dir, manifestPath: path.join(output.dir, 'manifest.json'), manifest };
  } catch (err) {
    await output?.discard();
    throw err;
  } finally {
    detach();
    await client.end().catch(() => {});
  }
}

// How many corrections in force (sql/migrations/0067_ledger_corrections.sql) each file reflects: those on ledger rows of the period
// and account that the file's query reads. The tax-tool files read classifications through
// ledger_corrections_in_force and prices through ledger_valued (CoinTracking and CoinTracker carry
// no value, so only classifications); valued-ledger.csv reads both; corrections.csv lists every
// one in force; the other native CSVs are the exchange's own records, uncorrected.
async function correctionsReflected(client: pg.Client, bounds: { fromUtc: string; toUtc: string }, account: string, includeDemo: boolean): Promise<(query: string) => number> {
  const { rows } = await client.query<{ all: number; classified: number; demo_all: number; listed: number }>(
    `SELECT count(*) FILTER (WHERE NOT l.demo OR $4)::int AS all, count(*) FILTER (WHERE c.classification IS NOT NULL AND (NOT l.demo OR $4))::int AS classified,
            count(*)::int AS demo_all,
            (SELECT count(*)::int FROM ledger_corrections_in_force x WHERE $3 = '' OR x.account_uid = $3) AS listed
     FROM ledger_corrections_in_force c
     JOIN ledger l ON l.account_uid = c.account_uid AND l.source = c.source AND l.source_id = c.source_id AND l.wallet = c.wallet AND l.leg = c.leg
     WHERE l.ts >= $1::timestamptz AND l.ts < $2::timestamptz AND ($3 = '' OR c.account_uid = $3)`,
    [bounds.fromUtc, bounds.toUtc, account, includeDemo]);
  const n = rows[0]!;
  return (query) => {
    switch (query) {
      case 'reports/koinly.sql': case 'reports/ctc.sql': return n.all;
      case 'reports/cointracking.sql': case 'reports/cointracker.sql': return n.classified;
      case 'reports/valued-ledger.sql': return n.demo_all;
      case 'reports/corrections.sql': return n.listed;
      default: return 0;
    }
  };
}

/**
 * The period in UTC. A period that starts after now (the database's clock) is refused: `report
 * --year 2030` (typed for 2020) wrote a folder of empty files and a manifest for a year nothing
 * can have happened in. The portal's preview asks it too, so it refuses what the download does.
 *
 * @example
 * const { fromUtc, toUtc } = await periodBounds(client, reportPeriod({ year: '2025', tz: 'Asia/Tokyo' }));
 */
export async function periodBounds(client: pg.Client | pg.Pool, period: ReportPeriod): Promise<{ fromUtc: string; toUtc: string }> {
  let row: { from_utc: string; to_utc: string; today: string; future: boolean };
  try {
    const { rows } = await client.query<typeof row>(
      `SELECT to_char(($1::timestamp AT TIME ZONE $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS from_utc,
              to_char(($2::timestamp AT TIME ZONE $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS to_utc,
              to_char(now() AT TIME ZONE $3, 'YYYY-MM-DD') AS today, ($1::timestamp AT TIME ZONE $3) > now() AS future`,
      [period.from, period.to, period.tz]);
    row = rows[0]!;
  } catch (err) {
    // 22023: 'time zone "X" not recognized'. Anything else (a lost connection, from the portal's
    // pool too) is not a bad flag and goes on as it is.
    if ((err as { code?: string }).code !== '22023') throw err;
    throw new TradeledgerError('REPORT_BAD_FLAG', `the database does not know the time zone "${period.tz}"`, {
      kind: 'config', cause: err, hint: 'Use a zone listed by: SELECT name FROM pg_timezone_names.',
    });
  }
  if (row.future) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `the period from ${period.from} starts after today (${row.today} in ${period.tz}): nothing can have happened in it yet`, {
      kind: 'config', hint: `Pick a period that has started: the year ${row.today.slice(0, 4)} (so far) or ${Number(row.today.slice(0, 4)) - 1}, say.`,
    });
  }
  return { fromUtc: row.from_utc, toUtc: row.to_utc };
}
