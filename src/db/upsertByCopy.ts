import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyText } from './copyText.js';
import { quote, upsertPlan } from './upsertStatement.js';
import type { Row, UpsertCounts, UpsertTarget } from './upsertTarget.js';

/**
 * Bulk upsert by COPY into a temporary staging table (same column types as the target), then
 * one `INSERT ... SELECT ... ON CONFLICT (key) DO UPDATE ... WHERE <changed>`. Tells inserts
 * from updates by `xmax = 0`. Runs on the caller's client, inside the caller's transaction;
 * the staging table is dropped before it returns (on success; on failure the rollback does it).
 *
 * @example
 * const counts = await upsertByCopy(tx, { table: 'spot_fills', key: ['account_uid', 'trade_id'] }, rows);
 */
export async function upsertByCopy(tx: { client: pg.ClientBase }, target: UpsertTarget, rows: readonly Row[]): Promise<UpsertCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const plan = upsertPlan(target, rows);
  const columns = plan.columns.map(quote).join(', ');
  const stage = quote(`tl_stage_${createHash('sha1').update(`${plan.table}(${columns})`).digest('hex').slice(0, 12)}`);
  // No ON COMMIT DROP: outside a transaction block that would drop it before the COPY. A table
  // left by a failed call on this (pooled) session is replaced.
  await tx.client.query(`DROP TABLE IF EXISTS pg_temp.${stage}`);
  await tx.client.query(`CREATE TEMP TABLE ${stage} AS SELECT ${columns} FROM ${plan.table} WITH NO DATA`);
  await pipeline(Readable.from(copyLines(plan.columns, plan.rows)), tx.client.query(copyFrom(`COPY ${stage} (${columns}) FROM STDIN`)));
  const res = await tx.client.query<{ inserted: number; updated: number }>(
    `WITH up AS (INSERT INTO ${plan.table} AS t (${columns}) SELECT ${columns} FROM ${stage} ${plan.conflict} RETURNING (t.xmax = 0) AS fresh)
     SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*) FILTER (WHERE NOT fresh)::int AS updated FROM up`,
  );
  await tx.client.query(`DROP TABLE ${stage}`);
  const inserted = res.rows[0]?.inserted ?? 0;
  const updated = res.rows[0]?.updated ?? 0;
  return { inserted, updated, unchanged: rows.length - inserted - updated };
}

// Chunks of a few hundred rows: large enough to keep stream overhead low, small enough that
// memory stays flat however big the batch.
function* copyLines(columns: string[], rows: Row[]): Generator<string> {
  let buffer = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    buffer += columns.map((c) => copyText(row[c])).join('\t') + '\n';
    if (i % 256 === 255) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}
