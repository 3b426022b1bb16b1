import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { stringify } from 'csv-stringify/sync';
import type { BoundQuery } from './bindNamedParameters.js';

/** What one CSV file holds. */
export interface CsvFileResult {
  rows: number;
  bytes: number;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
}

// Every value arrives as PostgreSQL's own text: amounts keep every digit, nothing becomes a JS
// number, and there is no parse cost.
const asText = { getTypeParser: () => (value: string) => value };

/**
 * Runs a query through a server-side cursor and writes its rows as CSV (header from the column
 * names), batch by batch through csv-stringify, so memory stays flat however many rows there
 * are. Hashes the bytes as they are written.
 *
 * @example
 * const { rows, sha256 } = await streamQueryToCsv(client, bindNamedParameters(sql, params), 'out/ledger.csv');
 */
export async function streamQueryToCsv(client: pg.ClientBase, query: BoundQuery, file: string, batchSize = 10_000): Promise<CsvFileResult> {
  const cursor = client.query(new Cursor<string[]>(query.text, query.values, { rowMode: 'array', types: asText }));
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const write = async (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    bytes += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  try {
    let columns: string[] | undefined;
    for (;;) {
      const { batch, fields } = await readBatch(cursor, batchSize);
      if (columns === undefined) {
        columns = fields.map((f) => f.name);
        await write(stringify([columns]));
      }
      if (batch.length === 0) break;
      rows += batch.length;
      await write(stringify(batch));
    }
  } finally {
    await cursor.close().catch(() => {});
    out.end();
    await once(out, 'close');
  }
  return { rows, bytes, sha256: hash.digest('hex') };
}

function readBatch(cursor: Cursor<string[]>, size: number): Promise<{ batch: string[][]; fields: pg.FieldDef[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(size, (err, batch, result) => {
      if (err) reject(err);
      else resolve({ batch, fields: result?.fields ?? [] });
    });
  });
}
