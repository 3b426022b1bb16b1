import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';
import yazl from 'yazl';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { defaultReportsDir, runReports } from '../reports/runReports.js';
import { streamQueryToCsv } from '../reports/streamQueryToCsv.js';
import type { ReportManifest } from '../reports/reportManifest.js';
import type { ReportRequest } from './reportRequest.js';
import { queryOf } from './reportRequest.js';

/** A report written to a private temporary folder, ready to send; `remove` deletes it. */
export interface PreparedDownload {
  /** What the browser saves it as. */
  fileName: string;
  contentType: string;
  /** The bytes, streamed from disk (memory stays flat however big the file). */
  open(): Readable;
  /** Known before sending for a CSV (the file's SHA-256 and size); a zip's are counted while it streams. */
  sha256?: string;
  bytes?: number;
  remove(): Promise<void>;
}

async function scratch(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tradeledger-portal-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes one report CSV exactly as `tradeledger report` does: the same query from reports/, the
 * same parameters, the same streamQueryToCsv, inside the same kind of read-only snapshot.
 *
 * @example
 * const csv = await prepareCsv(url, request); csv.open().pipe(res); await csv.remove();
 */
export async function prepareCsv(databaseUrl: string, request: ReportRequest, reportsDir = defaultReportsDir): Promise<PreparedDownload> {
  const { period, account, format, file } = request;
  const sql = await readFile(path.join(reportsDir, `${queryOf(format, file)}.sql`), 'utf8');
  const tmp = await scratch();
  const target = path.join(tmp.dir, file);
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'tradeledger portal download' });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await streamQueryToCsv(client, bindNamedParameters(sql, { from: period.from, to: period.to, tz: period.tz, account }), target);
    await client.query('COMMIT');
    return {
      fileName: downloadName(request, file), contentType: 'text/csv; charset=utf-8',
      open: () => createReadStream(target, { highWaterMark: 256 * 1024 }), sha256: result.sha256, bytes: result.bytes, remove: tmp.remove,
    };
  } catch (err) {
    await tmp.remove();
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Runs the CLI's report runner for a whole format into a temporary folder and zips that folder
 * (`<label>/<format>/` with every CSV and manifest.json) as it streams.
 *
 * @example
 * const zip = await prepareZip(url, request); zip.open().pipe(res);
 */
export async function prepareZip(databaseUrl: string, request: ReportRequest, reportsDir = defaultReportsDir): Promise<PreparedDownload & { manifest: ReportManifest }> {
  const { period, account, format } = request;
  const tmp = await scratch();
  try {
    const folder = path.join(tmp.dir, period.label, format);
    const { manifest } = await runReports({ databaseUrl, period, format, account, outDir: folder, reportsDir });
    const inZip = `${period.label}/${format}`;
    return {
      manifest, fileName: downloadName(request, 'zip'), contentType: 'application/zip',
      open: () => {
        const zip = new yazl.ZipFile();
        const mtime = new Date(manifest.generatedAt);
        for (const name of [...manifest.files.map((f) => f.file), 'manifest.json']) {
          zip.addFile(path.join(folder, name), `${inZip}/${name}`, { mtime });
        }
        zip.end();
        return zip.outputStream as Readable;
      },
      remove: tmp.remove,
    };
  } catch (err) {
    await tmp.remove();
    throw err;
  }
}

/**
 * The name a download is saved under: tradeledger_<account or all>_<period>_<format>[_file].
 *
 * @example
 * downloadName(request, 'ledger.csv'); // 'tradeledger_1000000001_2025_native_ledger.csv'
 */
export function downloadName(request: ReportRequest, file: string): string {
  const who = request.account === '' ? 'all' : request.account.replace(/[^A-Za-z0-9_-]/g, '_');
  return file === 'zip'
    ? `tradeledger_${who}_${request.period.label}_${request.format}.zip`
    : `tradeledger_${who}_${request.period.label}_${request.format}_${file}`;
}
