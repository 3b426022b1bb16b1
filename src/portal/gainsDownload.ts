import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { TradeledgerError } from '../errors.js';
import { runGains } from '../gains/runGains.js';
import { ruleSet, ruleSetNames } from '../gains/ruleSets.js';
import type { RuleSetName } from '../gains/ruleSets.js';
import { defaultReportsDir } from '../reports/runReports.js';
import { scratch } from './reportDownload.js';
import type { DownloadRun, PreparedDownload } from './reportDownload.js';
import { checkboxOn } from './reportRequest.js';

/** A gains report as the portal's form asks for it, checked with the CLI's rules. */
export interface GainsRequest {
  rules: RuleSetName;
  year: number;
  /** Upper case, as `tradeledger gains` writes it into the folder name. */
  fiat: string;
  tz: string;
  /** One account uid or imported wallet name, or '' for every account (admins only; checked by the route). */
  account: string;
  pools: 'universal' | 'wallet';
  /** One of {@link gainsFiles}, for a single-file download. */
  file: string;
  /** Demo-trading accounts included, valued 0 (`gains --include-demo`; the form's checkbox). */
  includeDemo: boolean;
}

/**
 * The files a `tradeledger gains` folder holds for a rule set, in the order runGains writes them.
 *
 * @example
 * gainsFiles('us'); // ['gains.csv', 'income.csv', 'gains-data-quality.csv', 'form-8949.csv', 'summary.json', 'summary.txt', 'manifest.json']
 */
export function gainsFiles(rules: RuleSetName): string[] {
  return ['gains.csv', 'income.csv', 'gains-data-quality.csv', ...(rules === 'us' ? ['form-8949.csv'] : []), 'summary.json', 'summary.txt', 'manifest.json'];
}

const bad = (message: string, hint: string) => new TradeledgerError('GAINS_BAD_FLAG', message, { kind: 'config', hint });

/**
 * Reads and checks the gains form's fields (`rules`, `year`, `fiat`, `tz`, `account`, `pools`,
 * `file`, `include_demo`) with the messages `tradeledger gains` gives for the same mistakes.
 *
 * @example
 * gainsRequest({ rules: 'uk', year: '2025', fiat: 'gbp', tz: 'Europe/London', account: '1000000001' });
 */
export function gainsRequest(query: Record<string, string | undefined>): GainsRequest {
  const rules = query.rules ?? '';
  if (!(ruleSetNames as readonly string[]).includes(rules)) {
    throw bad(`rules "${rules}" is not one of ${ruleSetNames.join(', ')}`, 'Pick the rules from the list.');
  }
  const year = query.year ?? '';
  if (!/^\d{4}$/.test(year)) throw bad(`year "${year}" is not a four-digit year`, 'Write the tax year as four digits, e.g. 2025.');
  const fiat = query.fiat ?? '';
  if (!/^[A-Za-z]{3}$/.test(fiat)) throw bad(`fiat "${fiat}" is not a currency code`, 'Use a three-letter code such as GBP, USD or EUR.');
  const pools = query.pools === 'wallet' ? 'wallet' : 'universal';
  const files = gainsFiles(rules as RuleSetName);
  const file = query.file || files[0]!;
  if (!files.includes(file)) throw bad(`the ${rules} gains folder has no file "${file}"`, `Pick one of ${files.join(', ')}.`);
  return { rules: rules as RuleSetName, year: Number(year), fiat: fiat.toUpperCase(), tz: query.tz || portalZone(rules as RuleSetName), account: query.account ?? '', pools, file, includeDemo: checkboxOn(query.include_demo) };
}

/**
 * The folder name `tradeledger gains` uses: <year>-<rules>-<fiat>.
 *
 * @example
 * gainsLabel(request); // '2025-uk-GBP'
 */
export function gainsLabel(request: GainsRequest): string {
  return `${request.year}-${request.rules}-${request.fiat}`;
}

/**
 * The tax year's first and last-plus-one day under the request's rules (UK: 6 April).
 *
 * @example
 * gainsPeriod(request); // { from: '2025-04-06', to: '2026-04-06' }
 */
export function gainsPeriod(request: GainsRequest): { from: string; to: string } {
  return ruleSet(request.rules).taxYear(request.year);
}

// A gains run computes the whole year before it writes anything and its files are small (one row
// per disposal), so the folder is complete before a byte is sent, unlike a report's ledger file.
async function runInto(databaseUrl: string, request: GainsRequest, reportsDir: string, run: DownloadRun): Promise<{ folder: string; remove(): Promise<void> }> {
  run.signal?.throwIfAborted();
  const { dir, remove } = await scratch('tradeledger-portal-gains-', run.scratchDir);
  const folder = path.join(dir, gainsLabel(request));
  try {
    await runGains({
      databaseUrl, rules: request.rules, year: request.year, fiat: request.fiat, tz: request.tz, account: request.account,
      pools: request.pools, includeDemo: request.includeDemo, outDir: folder, reportsDir, signal: run.signal,
    });
  } catch (err) {
    await remove();
    throw err;
  }
  return { folder, remove };
}

/**
 * Runs `tradeledger gains`' own runGains into a private temporary folder and sends one of its
 * files, as the CLI wrote it.
 *
 * @example
 * const file = await prepareGainsFile(url, gainsRequest({ rules: 'us', year: '2025', fiat: 'USD', file: 'form-8949.csv' }));
 */
export async function prepareGainsFile(databaseUrl: string, request: GainsRequest, reportsDir = defaultReportsDir, options: DownloadRun = {}): Promise<PreparedDownload> {
  const run = await runInto(databaseUrl, request, reportsDir, options);
  const target = path.join(run.folder, request.file);
  const sha256 = createHash('sha256').update(await readFile(target)).digest('hex');
  const contentType = request.file.endsWith('.csv') ? 'text/csv; charset=utf-8' : request.file.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8';
  return {
    fileName: `${gainsDownloadName(request)}_${request.file}`, contentType, stream: createReadStream(target),
    written: Promise.resolve({ sha256 }), remove: run.remove,
  };
}

/**
 * Runs runGains into a private temporary folder and zips the folder as `gains/<year>-<rules>-<fiat>/`
 * (the path under tradeledger-reports/ where the CLI writes it), manifest included.
 *
 * @example
 * const zip = await prepareGainsZip(url, gainsRequest({ rules: 'uk', year: '2025', fiat: 'GBP' })); zip.stream.pipe(res);
 */
export async function prepareGainsZip(databaseUrl: string, request: GainsRequest, reportsDir = defaultReportsDir, options: DownloadRun = {}): Promise<PreparedDownload> {
  const run = await runInto(databaseUrl, request, reportsDir, options);
  const zip = new yazl.ZipFile();
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
  const mtime = new Date();
  for (const name of gainsFiles(request.rules)) zip.addFile(path.join(run.folder, name), `gains/${gainsLabel(request)}/${name}`, { mtime });
  zip.end();
  return {
    fileName: `${gainsDownloadName(request)}.zip`, contentType: 'application/zip', stream: zip.outputStream as Readable,
    written: Promise.resolve({}), remove: run.remove,
  };
}

/**
 * The name a gains download is saved under: tradeledger_<account or all>_gains_<year>-<rules>-<fiat>.
 *
 * @example
 * gainsDownloadName(request); // 'tradeledger_1000000001_gains_2025-uk-GBP'
 */
export function gainsDownloadName(request: GainsRequest): string {
  const who = request.account === '' ? 'all' : request.account.replace(/[^A-Za-z0-9_-]/g, '_');
  return `tradeledger_${who}_gains_${gainsLabel(request)}`;
}

// The rule set's own zone when the form names none (uk: Europe/London, de: Europe/Berlin); where a
// country has several (us, ca, au) the portal keeps UTC unless the user picks one (the CLI asks).
function portalZone(rules: RuleSetName): string {
  const zone = ruleSet(rules).zone;
  return zone === 'ask' ? 'UTC' : zone;
}
