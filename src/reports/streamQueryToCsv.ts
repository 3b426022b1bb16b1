import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { csvLines } from './csvLines.js';
import { CsvGuard } from './csvGuard.js';
import type { BoundQuery } from './bindNamedParameters.js';

/** Tuning for {@link streamQueryToCsv}. */
export interface StreamCsvOptions {
  /** Rows formatted per write; default 2000. */
  batchSize?: number;
  /** false: every row through csv-stringify (see csvLines); default true. Same bytes either way. */
  fastPath?: boolean;
  /** How the file is opened (fs flags); default 'w'. 'wx' refuses any existing file or link. */
  flags?: string;
  /**
   * true (default): when PostgreSQL's own CSV output of the query is byte-identical to what the
   * Node writer would write (see {@link copyPlan}), stream `COPY ... TO STDOUT` straight to the
   * file; false: always decode and re-encode the rows in Node (csvLines). Same bytes either way.
   */
  copy?: boolean;
}

/** What one CSV file holds. */
export interface CsvFileResult {
  rows: number;
  bytes: number;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** Text cells that would have run as spreadsheet formulas, written with a leading `'`. */
  neutralisedCells: number;
}

// Every value arrives as PostgreSQL's own text: amounts keep every digit, nothing becomes a JS
// number, and there is no parse cost.
const asText: pg.CustomTypesConfig = { getTypeParser: (() => (value: string) => value) as pg.CustomTypesConfig['getTypeParser'] };

/**
 * Streams a query's rows into a CSV file (header from the column names) with csv-stringify's
 * rules and the formula guard, with constant memory however many rows there are, and hashes the
 * bytes as they are written. Where PostgreSQL's own CSV gives those bytes (see copyPlan: nearly
 * every report), `COPY ... TO STDOUT` is streamed to the file through CsvGuard, with no row
 * decoded in Node (issue 24 item 4); otherwise the rows are formatted a batch at a time by
 * csvLines.
 *
 * The server streams rows as it produces them, so it works while this process formats the
 * previous batch (a cursor would make both sides wait for each other every batch). Memory stays
 * flat through backpressure: when the file cannot keep up, the socket is paused and TCP holds
 * the server back until the file drains.
 *
 * @example
 * const { rows, sha256 } = await streamQueryToCsv(client, bindNamedParameters(sql, params), 'out/ledger.csv');
 */
export async function streamQueryToCsv(client: pg.Client, query: BoundQuery, file: string, options: StreamCsvOptions = {}): Promise<CsvFileResult> {
  if (options.copy !== false) {
    const copy = await copyPlan(client, query);
    if (copy !== null) return copyToFile(client, copy, file, options.flags ?? 'w');
  }
  return rowsToFile(client, query, file, options);
}

async function rowsToFile(client: pg.Client, query: BoundQuery, file: string, options: StreamCsvOptions): Promise<CsvFileResult> {
  const batchSize = options.batchSize ?? 2_000;
  const out = createWriteStream(file, { flags: options.flags ?? 'w' });
  const socket = client.connection.stream;
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  let paused = false;
  const tally = { neutralised: 0 };
  // A file that fails (a full disk) stops the writing, not the query: its rows are read on and
  // dropped, so the error comes back once the connection is free for the caller's next statement
  // (a socket left paused for a 'drain' that never came hung the command).
  let failed: { error: unknown } | undefined;
  out.on('error', (error) => {
    failed ??= { error };
    if (paused) { paused = false; socket.resume(); }
  });
  const write = (text: string) => {
    if (failed !== undefined) return;
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    bytes += chunk.length;
    if (!out.write(chunk) && !paused) {
      paused = true;
      socket.pause();
      out.once('drain', () => { paused = false; socket.resume(); });
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let batch: (string | null)[][] = [];
      let header = false;
      const writeHeader = (fields: pg.FieldDef[] | undefined) => {
        header = true;
        write(csvLines([(fields ?? []).map((f) => f.name)], options.fastPath, tally));
      };
      const flush = () => {
        if (batch.length === 0) return;
        rows += batch.length;
        write(csvLines(batch, options.fastPath, tally));
        batch = [];
      };
      const config: pg.QueryArrayConfig = { text: query.text, values: query.values, rowMode: 'array', types: asText };
      const q = new pg.Query(config);
      q.on('row', (row: (string | null)[], result?: pg.ResultBuilder) => {
        if (!header) writeHeader(result?.fields);
        batch.push(row);
        if (batch.length >= batchSize) flush();
      });
      q.on('end', (result: pg.QueryResult | pg.QueryResult[]) => {
        if (!header) writeHeader((Array.isArray(result) ? result[0] : result)?.fields);
        flush();
        if (failed !== undefined) reject(failed.error);
        else resolve();
      });
      q.on('error', reject);
      client.query(q);
    });
  } finally {
    if (paused) socket.resume();
    out.end();
    // A stream that failed to open has already closed; waiting for 'close' again would hang.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
  }
  // A write that failed as the file closed, after the last row.
  if (failed !== undefined) throw failed.error;
  return { rows, bytes, sha256: hash.digest('hex'), neutralisedCells: tally.neutralised };
}

const placeholders = /\$(\d+)::text/g;

/**
 * The COPY statement whose CSV, passed through {@link CsvGuard}, is byte-identical to what the Node
 * path writes, or null where there is none:
 *  - PostgreSQL's CSV quotes what csv-stringify (csvLines) quotes, the same way, and writes every
 *    value with the type's output function, as the Node path receives it; the differences, the
 *    formula guard and `""` for an empty string, are CsvGuard's;
 *  - PostgreSQL quotes a lone `\.` in a one-column file (csv-stringify does not): such a query
 *    stays in Node;
 *  - COPY takes no bind parameters: the bound values go in as quoted literals (escapeLiteral), and
 *    a query with any other `$` stays in Node.
 * The column count comes from the query run with LIMIT 0 (planned, not executed).
 */
export async function copyPlan(client: pg.Client, query: BoundQuery): Promise<string | null> {
  const dollars = query.text.split('$').length - 1;
  const bound = [...query.text.matchAll(placeholders)];
  if (bound.length !== dollars || bound.some((m) => Number(m[1]) < 1 || Number(m[1]) > query.values.length)) return null;
  const described = await client.query({ text: `SELECT * FROM (${query.text}) tl_report LIMIT 0`, values: query.values, rowMode: 'array', types: asText });
  if (described.fields.length < 2) return null;
  const inner = query.text.replace(placeholders, (_m, n: string) => `${client.escapeLiteral(query.values[Number(n) - 1]!)}::text`);
  return `COPY (${inner}) TO STDOUT WITH (FORMAT csv, HEADER true)`;
}

// Streams a COPY statement's output through CsvGuard to the file, hashing and counting as it
// goes; rows from the COPY's command tag.
async function copyToFile(client: pg.Client, copy: string, file: string, flags: string): Promise<CsvFileResult> {
  // The file is opened before the COPY starts, so a file that cannot be written never leaves a
  // COPY half read on the connection.
  const out = createWriteStream(file, { flags });
  await new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', reject);
  });
  const guard = new CsvGuard();
  const stream = client.query(copyTo(copy));
  // Not stream/promises' pipeline: on a file error (a full disk) it destroys the COPY stream,
  // which then stops reading the connection mid-COPY, and the next statement on it (the caller's
  // ROLLBACK) waited forever. A failed file instead unpipes the COPY and reads it to its end,
  // discarding it, so the error comes back with the connection free.
  await new Promise<void>((resolve, reject) => {
    let failed: { error: unknown } | undefined;
    const fileFailed = (error: unknown) => {
      if (failed !== undefined) return;
      failed = { error };
      if (stream.readableEnded) { reject(error); return; }
      stream.unpipe(guard);
      stream.resume();
    };
    stream.on('error', (error) => { out.destroy(); reject(failed?.error ?? error); });
    stream.on('end', () => { if (failed !== undefined) reject(failed.error); });
    guard.on('error', fileFailed);
    out.on('error', fileFailed);
    out.on('close', () => { if (failed === undefined && stream.readableEnded) resolve(); });
    stream.pipe(guard).pipe(out);
  });
  return { rows: Number(stream.rowCount ?? 0), bytes: guard.bytes, sha256: guard.sha256, neutralisedCells: guard.neutralised };
}
