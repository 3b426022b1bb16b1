import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { TradeledgerError } from '../errors.js';
import { runGains } from '../gains/runGains.js';
import { gainsFiles, gainsLabel, parseGainsRequest } from '../gains/gainsRequest.js';
import type { GainsRequest } from '../gains/gainsRequest.js';
import { defaultReportsDir } from '../reports/runReports.js';
import { scratch } from './reportDownload.js';
import type { DownloadRun, PreparedDownload } from './reportDownload.js';
import { checkboxOn } from './reportRequest.js';

/** A gains download as the portal's form asks for it: the CLI's request and the one file wanted. */
export interface GainsDownloadRequest extends GainsRequest {
  /** One of {@link gainsFiles}, for a single-file download. */
  file: string;
}

/**
 * Reads and checks the gains form's fields (`rules`, `year`, `fiat`, `tz`, `account`, `pools`,
 * `file`, `include_demo`) by `tradeledger gains`' own rules (parseGainsRequest), plus the file.
 *
 * @example
 * gainsDownloadRequest({ rules: 'uk', year: '2025', fiat: 'gbp', tz: 'Europe/London', account: '1000000001' });
 */
export function gainsDownloadRequest(query: Record<string, string | undefined>): GainsDownloadRequest {
  const { request } = parseGainsRequest({ ...query, includeDemo: checkboxOn(query.include_demo) }, 'portal');
  const files = gainsFiles(request.rules);
  const file = query.file || files[0]!;
  if (!files.includes(file)) {
    throw new TradeledgerError('GAINS_BAD_FLAG', `the ${request.rules} gains folder has no file "${file}"`, { kind: 'config', hint: `Pick one of ${files.join(', ')}.` });
  }
  return { ...request, file };
}

// A gains run computes the whole year before it writes anything and its files are small (one row
// per disposal), so the folder is complete before a byte is sent, unlike a report's ledger file.
async function runInto(databaseUrl: string, request: GainsDownloadRequest, reportsDir: string, run: DownloadRun): Promise<{ folder: string; notReady: string[]; remove(): Promise<void> }> {
  run.signal?.throwIfAborted();
  const { dir, remove } = await scratch('tradeledger-portal-gains-', run.scratchDir);
  const folder = path.join(dir, gainsLabel(request));
  try {
    const { summary } = await runGains({
      databaseUrl, rules: request.rules, year: request.year, fiat: request.fiat, tz: request.tz, account: request.account,
      pools: request.pools, includeDemo: request.includeDemo, outDir: folder, reportsDir, signal: run.signal,
    });
    return { folder, notReady: summary.incomplete.map((x) => x.problem), remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * What a download of a run whose figures are not yet the return's is marked with, in the name it
 * is saved under and in a response header: summary.txt opens with "NOT READY TO FILE" and the
 * reasons, but a single gains.csv or form-8949.csv has no room for them (a line of prose would stop
 * a tax tool reading it), and an accountant who saves it from the portal sees only its name.
 */
export const NOT_READY_MARK = 'NOT-READY-TO-FILE';

function notReadyName(request: GainsDownloadRequest, notReady: string[]): string {
  return notReady.length > 0 ? `${gainsDownloadName(request)}_${NOT_READY_MARK}` : gainsDownloadName(request);
}

// The reasons (incompleteFigures.ts's problem words), for a script that downloads the files.
function notReadyHeaders(notReady: string[]): Record<string, string> | undefined {
  return notReady.length > 0 ? { 'X-Tradeledger-Not-Ready-To-File': [...new Set(notReady)].join(', ') } : undefined;
}

/**
 * Runs `tradeledger gains`' own runGains into a private temporary folder and sends one of its
 * files, as the CLI wrote it; named with {@link NOT_READY_MARK} when the run's figures are not yet
 * the return's (summary.incomplete).
 *
 * @example
 * const file = await prepareGainsFile(url, gainsDownloadRequest({ rules: 'us', year: '2025', fiat: 'USD', file: 'form-8949.csv' }));
 */
export async function prepareGainsFile(databaseUrl: string, request: GainsDownloadRequest, reportsDir = defaultReportsDir, options: DownloadRun = {}): Promise<PreparedDownload> {
  const run = await runInto(databaseUrl, request, reportsDir, options);
  const target = path.join(run.folder, request.file);
  const sha256 = createHash('sha256').update(await readFile(target)).digest('hex');
  const contentType = request.file.endsWith('.csv') ? 'text/csv; charset=utf-8' : request.file.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8';
  return {
    fileName: `${notReadyName(request, run.notReady)}_${request.file}`, contentType, stream: createReadStream(target),
    headers: notReadyHeaders(run.notReady), written: Promise.resolve({ sha256 }), remove: run.remove,
  };
}

/**
 * Runs runGains into a private temporary folder and zips the folder as `gains/<year>-<rules>-<fiat>/`
 * (the path under tradeledger-reports/ where the CLI writes it), manifest included.
 *
 * @example
 * const zip = await prepareGainsZip(url, gainsDownloadRequest({ rules: 'uk', year: '2025', fiat: 'GBP' })); zip.stream.pipe(res);
 */
export async function prepareGainsZip(databaseUrl: string, request: GainsDownloadRequest, reportsDir = defaultReportsDir, options: DownloadRun = {}): Promise<PreparedDownload> {
  const run = await runInto(databaseUrl, request, reportsDir, options);
  const zip = new yazl.ZipFile();
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
  const mtime = new Date();
  for (const name of gainsFiles(request.rules)) zip.addFile(path.join(run.folder, name), `gains/${gainsLabel(request)}/${name}`, { mtime });
  zip.end();
  return {
    fileName: `${notReadyName(request, run.notReady)}.zip`, contentType: 'application/zip', stream: zip.outputStream as Readable,
    headers: notReadyHeaders(run.notReady), written: Promise.resolve({}), remove: run.remove,
  };
}

/**
 * The name a gains download is saved under: tradeledger_<account or all>_gains_<year>-<rules>-<fiat>.
 *
 * @example
 * gainsDownloadName(request); // 'tradeledger_1000000001_gains_2025-uk-GBP'
 */
export function gainsDownloadName(request: GainsDownloadRequest): string {
  const who = request.account === '' ? 'all' : request.account.replace(/[^A-Za-z0-9_-]/g, '_');
  return `tradeledger_${who}_gains_${gainsLabel(request)}`;
}
