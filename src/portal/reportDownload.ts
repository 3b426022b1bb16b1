import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createClient } from '../db/pools.js';
import yazl from 'yazl';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { defaultReportsDir, runReports } from '../reports/runReports.js';
import { fiatValuedQueries, reportFiles } from '../reports/reportFormats.js';
import { missingFxRates } from '../gains/incompleteFigures.js';
import type pg from 'pg';
import { streamQueryToCsv } from '../reports/streamQueryToCsv.js';
import type { ReportRequest } from './reportRequest.js';
import { queryOf } from './reportRequest.js';
import { followFile } from './followFile.js';
import { cancelOnAbort } from '../db/cancelOnAbort.js';

/** A report being written to a private temporary folder and streamed as it grows. */
export interface PreparedDownload {
  /** What the browser saves it as. */
  fileName: string;
  contentType: string;
  /** More response headers (a gains run not ready to file names its reasons in one). */
  headers?: Record<string, string>;
  /** The bytes, read from disk as the writer appends them: memory stays flat however big the file. */
  stream: Readable;
  /** Settles when the writer is done: for a CSV, the file's SHA-256 as the report runner counted it. */
  written: Promise<{ sha256?: string }>;
  /** Deletes the temporary folder (call when the response has ended). */
  remove(): Promise<void>;
}

/** How a download is run: cancelled by `signal` (the browser went away), written under `scratchDir`. */
export interface DownloadRun {
  /** Aborting cancels the download's queries at once (CancelRequest, then the socket closed). */
  signal?: AbortSignal;
  /** Where the private temporary folders go; default the system's (TMPDIR). */
  scratchDir?: string;
}

/**
 * A private temporary folder for one download.
 *
 * @example
 * const tmp = await scratch('tradeledger-portal-', run.scratchDir); ...; await tmp.remove();
 */
export async function scratch(prefix: string, scratchDir = tmpdir()): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(scratchDir, prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

// Waits for the writer's first bytes (or its end), so a failure that happens at once (a bad zone,
// a lost database) still gets an error page instead of a cut-off download.
async function firstBytes(file: string, written: Promise<unknown>): Promise<void> {
  let settled = false;
  written.then(() => { settled = true; }, () => { settled = true; });
  for (;;) {
    if (settled) { await written; return; }
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Writes one report CSV exactly as `tradeledger report` does (the same query from reports/, the
 * same parameters, the same streamQueryToCsv, in the same kind of read-only snapshot) and streams
 * it while it is being written.
 *
 * @example
 * const csv = await prepareCsv(url, request); csv.stream.pipe(res); await csv.written; await csv.remove();
 */
export async function prepareCsv(databaseUrl: string, request: ReportRequest, reportsDir = defaultReportsDir, run: DownloadRun = {}): Promise<PreparedDownload> {
  const { period, account, format, file, fiat, includeDemo } = request;
  const sql = await readFile(path.join(reportsDir, `${queryOf(format, file)}.sql`), 'utf8');
  run.signal?.throwIfAborted();
  const tmp = await scratch('tradeledger-portal-', run.scratchDir);
  // Not created here: the runner creates it (it may refuse to overwrite), and followFile waits for it.
  const target = path.join(tmp.dir, file);
  const client = createClient({ url: databaseUrl, name: 'portal-download' });
  const detach = cancelOnAbort([client], run.signal);
  const written = (async () => {
    try {
      await client.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await streamQueryToCsv(client, bindNamedParameters(sql, { from: period.from, to: period.to, tz: period.tz, account, fiat, include_demo: String(includeDemo) }), target);
      await client.query('COMMIT');
      return { sha256: result.sha256 };
    } finally {
      detach();
      await client.end().catch(() => {});
    }
  })();
  written.catch(() => {});
  // After the writer has stopped (at once when cancelled): no descriptor is left on a deleted file.
  const remove = async () => { await written.catch(() => {}); await tmp.remove(); };
  try {
    await firstBytes(target, written);
  } catch (err) {
    await remove();
    throw err;
  }
  return { fileName: downloadName(request, file), contentType: 'text/csv; charset=utf-8', stream: followFile(target, written), written, remove };
}

/**
 * Runs the CLI's report runner for a whole format into a temporary folder and zips that folder
 * (`<label>/<format>/` with every CSV and manifest.json) while the runner writes it: each entry
 * follows its file as it grows, in the order the runner writes them.
 *
 * @example
 * const zip = await prepareZip(url, request); zip.stream.pipe(res);
 */
export async function prepareZip(databaseUrl: string, request: ReportRequest, reportsDir = defaultReportsDir, run: DownloadRun = {}): Promise<PreparedDownload> {
  const { period, account, format, fiat, includeDemo } = request;
  run.signal?.throwIfAborted();
  const tmp = await scratch('tradeledger-portal-', run.scratchDir);
  const folder = path.join(tmp.dir, period.label, format);
  const names = reportFiles(format).map((f) => f.file);
  // Per file: `done` settles when the runner reports the file written (or fails); `writing` gives
  // the temporary path the runner writes it under until the whole folder is renamed into place.
  const settle = new Map<string, { resolve(): void; reject(err: unknown): void; done: Promise<void>; writing: Deferred<string> }>();
  for (const name of [...names, 'manifest.json']) {
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
    done.catch(() => {});
    settle.set(name, { resolve, reject, done, writing: deferred<string>() });
  }
  const written = runReports({
    databaseUrl, period, format, account, fiat, includeDemo, outDir: folder, reportsDir,
    signal: run.signal, connectionName: 'portal-download',
    onFileStart: (name, temporaryPath) => settle.get(name)?.writing.resolve(temporaryPath),
    onFile: (f) => settle.get(f.file)?.resolve(),
  })
    .then(() => { for (const s of settle.values()) s.resolve(); return {}; },
      (err: unknown) => { for (const s of settle.values()) { s.reject(err); s.writing.reject(err); } throw err; });
  written.catch(() => {});
  try {
    const first = settle.get(names[0]!)!;
    await firstBytes(await Promise.race([first.writing.promise, first.done.then(() => path.join(folder, names[0]!))]), first.done);
  } catch (err) {
    await written.catch(() => {});
    await tmp.remove();
    throw err;
  }
  const zip = new yazl.ZipFile();
  // yazl reports an entry's read error on the ZipFile, not on its output: end the output with it,
  // so the browser sees a failed download rather than a short zip.
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
  const mtime = new Date();
  const inZip = `${period.label}/${format}`;
  for (const [name, { done, writing }] of settle) {
    const entry = followFile(writing.promise, done, 25, path.join(folder, name));
    // A run that fails (or is cancelled) fails every entry; those yazl has not reached yet have no
    // listener of their own, and the failure reaches the browser through the entry being read.
    entry.on('error', () => {});
    zip.addReadStream(entry, `${inZip}/${name}`, { mtime });
  }
  zip.end();
  return {
    fileName: downloadName(request, 'zip'), contentType: 'application/zip', stream: zip.outputStream as Readable, written,
    remove: async () => { await written.catch(() => {}); await tmp.remove(); },
  };
}

/**
 * The name a download is saved under: tradeledger_<account or all>_<period>_<format>[_mark][_file].
 *
 * @example
 * downloadName(request, 'ledger.csv'); // 'tradeledger_1000000001_2025_native_ledger.csv'
 * downloadName(request, 'zip', 'NO-GBP-VALUES'); // 'tradeledger_1000000001_2025_native_NO-GBP-VALUES.zip'
 */
export function downloadName(request: ReportRequest, file: string, mark?: string): string {
  const who = request.account === '' ? 'all' : request.account.replace(/[^A-Za-z0-9_-]/g, '_');
  const head = `tradeledger_${who}_${request.period.label}_${request.format}${mark === undefined ? '' : `_${mark}`}`;
  return file === 'zip' ? `${head}.zip` : `${head}_${file}`;
}

/**
 * The ECB rates a download's values need and the database has none of ([] when it needs none, or
 * has them): `file` is the CSV asked for, or 'zip' for the format's every file. Only the files
 * whose figures are values in the fiat ({@link fiatValuedQueries}) need any.
 *
 * @example
 * await missingValueRates(pool, request, 'valued-ledger.csv'); // ['GBP', 'USD'] before `tradeledger import fx`
 */
export async function missingValueRates(db: Pick<pg.Pool, 'query'>, request: ReportRequest, file: string): Promise<string[]> {
  const queries = file === 'zip' ? reportFiles(request.format).map((f) => f.query) : [queryOf(request.format, file)];
  return queries.some((q) => fiatValuedQueries.includes(q)) ? missingFxRates(db, request.fiat) : [];
}

/**
 * The mark of a download whose values in `fiat` are missing for want of rates: in its saved name
 * and its audit row.
 *
 * @example
 * noValuesMark('GBP'); // 'NO-GBP-VALUES'
 */
export const noValuesMark = (fiat: string): string => `NO-${fiat}-VALUES`;

/**
 * A report download whose values come out empty for want of rates (`missing`, from
 * {@link missingValueRates}), marked so in the name it is saved under (NO-<FIAT>-VALUES) and in an
 * X-Tradeledger-Missing-Rates header: the CLI warns on stderr and the form says so beforehand, but
 * a saved valued-ledger.csv or koinly.csv shows nothing of it, and a tax tool reads its empty Net
 * Worth as "work it out yourself".
 *
 * @example
 * withMissingRates(await prepareCsv(url, request), request, 'valued-ledger.csv', ['GBP', 'USD']);
 */
export function withMissingRates(prepared: PreparedDownload, request: ReportRequest, file: string, missing: string[]): PreparedDownload {
  if (missing.length === 0) return prepared;
  return {
    ...prepared, fileName: downloadName(request, file, noValuesMark(request.fiat)),
    headers: { ...prepared.headers, 'X-Tradeledger-Missing-Rates': missing.join(', ') },
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => {});
  return { promise, resolve, reject };
}
