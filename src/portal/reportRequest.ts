import { reportPeriod } from '../reports/reportPeriod.js';
import type { ReportPeriod } from '../reports/reportPeriod.js';
import { reportFiles, reportFormats } from '../reports/reportFormats.js';
import type { ReportFormat } from '../reports/reportFormats.js';
import { TradeledgerError } from '../errors.js';
import { isFiatCode } from '../imports/currencyCodes.js';

/** A report as the portal's forms ask for it, checked. */
export interface ReportRequest {
  period: ReportPeriod;
  format: ReportFormat;
  /** One account uid, or '' for every account (admins only; checked by the route). */
  account: string;
  /** One of the format's files (e.g. 'ledger.csv'); the format's first when not asked for. */
  file: string;
  /** The currency of valued-ledger.csv, Koinly's Net Worth and data-quality's unpriced rows (`report --fiat`, default USD). */
  fiat: string;
  /** Demo-trading accounts in the tax-tool files (`report --include-demo`; the form's checkbox `include_demo`). */
  includeDemo: boolean;
}

/**
 * Reads and checks a report form's fields (`period=year&year=2025` or `period=range&from=..&to=..`,
 * `tz`, `format`, `account`, `file`, `fiat`, `include_demo`) with the CLI's own rules; a bad field's
 * message names the form's field, not the CLI's flag (`year "25"`, not `--year "25"`).
 *
 * @example
 * reportRequest({ year: '2025', tz: 'UTC', format: 'koinly', account: '1000000001' });
 */
export function reportRequest(query: Record<string, string | undefined>): ReportRequest {
  const byRange = query.period === 'range' || (query.period === undefined && query.year === undefined && query.from !== undefined);
  const period = reportPeriod(byRange
    ? { from: query.from ?? '', to: query.to ?? '', tz: query.tz || 'UTC' }
    // No default year here: the form always sends one (the portal's clock picks it, reports.tsx),
    // and a year taken from this machine's clock could disagree with it at New Year.
    : { year: query.year ?? '', tz: query.tz || 'UTC' }, 'form');
  const format = (query.format ?? 'native') as ReportFormat;
  if (!reportFormats.includes(format)) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `format "${query.format}" is not one of ${reportFormats.join(', ')}`, { kind: 'config', hint: 'Pick a format from the list.' });
  }
  const files = reportFiles(format).map((f) => f.file);
  const file = query.file && files.includes(query.file) ? query.file : files[0]!;
  if (query.file && !files.includes(query.file)) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `the ${format} format has no file "${query.file}"`, { kind: 'config', hint: `Pick one of ${files.join(', ')}.` });
  }
  const fiat = (query.fiat || 'USD').toUpperCase();
  if (!isFiatCode(fiat)) {
    throw new TradeledgerError('REPORT_BAD_FLAG', `fiat "${query.fiat}" is not an ISO 4217 currency code`, { kind: 'config', hint: 'Use a currency code such as USD, EUR or GBP (other than USD needs `tradeledger import fx`).' });
  }
  return { period, format, account: query.account ?? '', file, fiat, includeDemo: checkboxOn(query.include_demo) };
}

/**
 * The query name (in reports/) behind one of a format's files.
 *
 * @example
 * queryOf('native', 'fees.csv'); // 'fees'
 */
export function queryOf(format: ReportFormat, file: string): string {
  return reportFiles(format).find((f) => f.file === file)!.query;
}

/**
 * Whether a form's checkbox was ticked: a browser sends its value ('1' on our forms, 'on' by
 * default) only when it is; absent, empty, '0' and 'false' are not ticked.
 *
 * @example
 * checkboxOn('1'); // true
 */
export function checkboxOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'off'].includes(value.toLowerCase());
}
