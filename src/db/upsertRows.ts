import type pg from 'pg';
import { upsertByCopy } from './upsertByCopy.js';
import { upsertByValues } from './upsertByValues.js';
import type { Row, UpsertCounts, UpsertTarget } from './upsertTarget.js';

/** How {@link upsertRows} loads a batch. */
export type UpsertMethod = 'auto' | 'values' | 'copy';

/**
 * Batches from this size on go through COPY under `auto`. Measured by test/bench/upsert.bench.ts
 * (20-column table with jsonb): VALUES wins up to ~250 rows (no staging table to create), COPY
 * wins from ~500 rows and by about 2x from 1,000 to 100,000 rows, for inserts and updates alike.
 */
export const copyThreshold = 500;

/**
 * Inserts new rows, updates rows whose compared columns changed, leaves equal rows untouched,
 * and counts each. Runs inside the caller's transaction (see `withTransaction`). `auto` picks
 * the faster path for the batch size, as measured by the upsert benchmark.
 *
 * @example
 * await withTransaction(db, async (tx) => {
 *   const { inserted, updated, unchanged } = await upsertRows(tx, { table: 'deposits', key: ['account_uid', 'order_id'], onChange: ['updated_at = now()'] }, rows);
 * });
 */
export function upsertRows(tx: { client: pg.ClientBase }, target: UpsertTarget, rows: readonly Row[], method: UpsertMethod = 'auto'): Promise<UpsertCounts> {
  const useCopy = method === 'copy' || (method === 'auto' && rows.length >= copyThreshold);
  return useCopy ? upsertByCopy(tx, target, rows) : upsertByValues(tx, target, rows);
}
