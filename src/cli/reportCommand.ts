import type pg from 'pg';
import { Command, Option } from 'commander';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { migrate } from '../db/migrate.js';
import { lastDayLeftOut, reportPeriod } from '../reports/reportPeriod.js';
import { whileInterruptible } from './interrupt.js';
import { reportFormats } from '../reports/reportFormats.js';
import type { ReportFormat } from '../reports/reportFormats.js';
import { reportFiat, runReports } from '../reports/runReports.js';
import { createClient } from '../db/pools.js';
import { missingFxRates } from '../gains/incompleteFigures.js';

interface ReportFlags {
  year?: string;
  from?: string;
  to?: string;
  tz: string;
  account?: string;
  fiat: string;
  format: ReportFormat;
  out?: string;
  force?: boolean;
  includeDemo?: boolean;
}

/**
 * `tradeledger report`: writes a period's CSVs and manifest.json from the database.
 *
 * @example
 * tradeledger report --year 2025 --tz Europe/Berlin --format koinly
 */
export function reportCommand(_setExit: (code: number) => void): Command {
  return new Command('report')
    .description('Write a period\'s ledger and tax CSVs (plus manifest.json) from the synced database.')
    .option('--year <YYYY>', 'the tax year, in the --tz zone')
    .option('--from <YYYY-MM-DD>', 'first day included (use with --to)')
    .option('--to <YYYY-MM-DD>', 'first day NOT included: --from 2025-01-01 --to 2026-01-01 is all of 2025')
    .option('--tz <zone>', 'IANA time zone the dates and year boundaries are in', 'UTC')
    .option('--account <uid>', 'only this account: a UID or an imported wallet name (default: every account)')
    .option('--fiat <code>', 'currency for valued-ledger.csv and Koinly Net Worth (non-USD needs `tradeledger import fx`)', 'USD')
    .addOption(new Option('--format <format>', 'native CSVs, or one file for a tax tool').choices(reportFormats).default('native'))
    .option('--out <dir>', 'output folder (default ./tradeledger-reports/<year or from_to>/<format>; -2, -3, ... beside an existing one)')
    .option('--force', 'replace report files already in the output folder (never through a symlink)')
    .option('--include-demo', 'put demo-trading (paper) accounts into the tax-tool files, valued 0 (default: left out; native CSVs always keep them, marked)')
    .exitOverride()
    .addHelpText('after', '\nExample: tradeledger report --year 2025 --tz Asia/Tokyo --format koinly\nExisting files are never overwritten without --force. Exit codes: 0 written, 2 bad flags, output folder or account, 4 database problem.')
    .action(async (flags: ReportFlags) => {
      const period = reportPeriod(flags);
      reportFiat(flags.fiat);
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
      await migrate(url);
      const { outDir, manifest } = await whileInterruptible(({ signal }) => runReports({
        databaseUrl: url, period, format: flags.format, account: flags.account ?? '', fiat: flags.fiat, outDir: flags.out, force: flags.force ?? false, includeDemo: flags.includeDemo ?? false, signal,
        onFile: (f) => process.stdout.write(`${f.file.padEnd(28)} ${String(f.rows).padStart(9)} rows${f.neutralisedCells ? `  (${f.neutralisedCells} formula-like cells written as text)` : ''}\n`),
      }));
      process.stdout.write(`wrote ${outDir} (${manifest.parameters.fromUtc} up to ${manifest.parameters.toUtc}, not included; manifest.json)\n`);
      const endNote = lastDayLeftOut(period);
      if (endNote !== undefined) process.stderr.write(`note: ${endNote}\n`);
      const differences = manifest.reconciliation.unexplained ?? 0;
      if (differences > 0) process.stderr.write(`note: ${differences} balance(s) differ from the exchange's without explanation; \`tradeledger reconcile\` names the record where each parts\n`);
      if (manifest.demo.accounts.length > 0 && flags.format !== 'native') {
        const names = manifest.demo.accounts.map((a) => a.name).join(', ');
        process.stderr.write(manifest.demo.included
          ? `note: demo-trading account(s) ${names} included on request, valued 0\n`
          : `note: demo-trading account(s) ${names} left out (paper money); --include-demo puts them in; see manifest.json\n`);
      }
      // An empty ledger.csv (a tool's file) is written, as asked; but it says nothing of why.
      const main = manifest.files.find((f) => f.file === 'ledger.csv') ?? manifest.files[0];
      const fiat = manifest.parameters.fiat;
      // One connection for the notes that read the database; each is a hint, so none fails the run.
      const client = main?.rows === 0 || fiat !== 'USD' ? createClient({ url, name: 'report-notes' }) : undefined;
      const connected = client !== undefined && await client.connect().then(() => true, () => false);
      try {
        if (main?.rows === 0) process.stderr.write(`note: ${main.file} is empty: ${await whyEmpty(connected ? client : undefined, period)}\n`);
        if (manifest.gaps.length > 0) process.stderr.write(`note: ${manifest.gaps.length} known history gap(s); listed in manifest.json and data-quality.csv\n`);
        // A fiat whose rates were never imported leaves the rows that need them without a value:
        // said, not left to an empty column. Only a warning: the files are written already.
        const missing = connected && fiat !== 'USD' ? await missingFxRates(client, fiat).catch(() => [] as string[]) : [];
        if (missing.length > 0) {
          process.stderr.write(`warning: no ${missing.join(' or ')} rates are imported, so every row that needs them has no ${fiat} value (data-quality.csv lists each as unpriced); run \`tradeledger import fx eurofxref-hist.zip\` (the ECB's euro reference rates) and write the report again\n`);
        }
      } finally {
        await client?.end().catch(() => {});
      }
    });
}

/**
 * Why a report's ledger came out without a row, and what to check: the ledger is empty (no sync or
 * import has run against this database), or none of its records is in the period (or the account)
 * asked for.
 */
async function whyEmpty(client: pg.Client | undefined, period: { from: string; to: string; tz: string }): Promise<string> {
  const unknown = 'check the period and --account, and that `tradeledger sync` has run (`tradeledger status`)';
  if (client === undefined) return unknown;
  const any = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM ledger) AS any').then((r) => r.rows[0]?.any, () => undefined);
  if (any === undefined) return unknown;
  return any
    ? `the database holds no record from ${period.from} to ${period.to} (exclusive; ${period.tz}) for what was asked; check --year/--from/--to, --tz and --account (\`tradeledger status\` shows what each account holds)`
    : 'no sync or import has run against this database yet: `tradeledger sync` (or `tradeledger demo` to try everything on the sandbox)';
}
