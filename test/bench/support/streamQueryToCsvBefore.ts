// streamQueryToCsv and csvLines as they were before issue 24 item 4 (commit edfd573), kept so
// reportLedger.bench.ts can pair the old writer with the new one in the same run.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import pg from 'pg';
import { csvLines } from './csvLinesBefore.js';
import type { BoundQuery } from '../../../src/reports/bindNamedParameters.js';

/** Tuning for {@link streamQueryToCsv}. */
export interface StreamCsvOptions {
  /** Rows formatted per write; default 2000. */
  batchSize?: number;
  /** false: every row through csv-stringify (see csvLines); default true. Same bytes either way. */
  fastPath?: boolean;
  /** How the file is opened (fs flags); default 'w'. 'wx' refuses any existing file or link. */
  flags?: string;
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
 * Streams a query's rows into a CSV file (header from the column names), formatted a batch at a
 * time by csvLines (csv-stringify's rules), with constant memory however many rows there are.
 * Hashes the bytes as they are written.
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
  const batchSize = options.batchSize ?? 2_000;
  const out = createWriteStream(file, { flags: options.flags ?? 'w' });
  const socket = client.connection.stream;
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  let paused = false;
  const tally = { neutralised: 0 };
  const write = (text: string) => {
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
      out.once('error', reject);
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
        resolve();
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
  return { rows, bytes, sha256: hash.digest('hex'), neutralisedCells: tally.neutralised };
}
