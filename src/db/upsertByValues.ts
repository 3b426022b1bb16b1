import type pg from 'pg';
import { param, quote, upsertPlan } from './upsertStatement.js';
import type { Row, UpsertCounts, UpsertTarget } from './upsertTarget.js';

// PostgreSQL binds at most 65535 parameters per statement.
const maxParameters = 65_535;

/**
 * Bulk upsert as multi-row `INSERT ... VALUES (...), (...) ON CONFLICT (key) DO UPDATE ...
 * WHERE <changed>`, in statements of at most `rowsPerStatement` rows. Tells inserts from
 * updates by `xmax = 0`. Runs on the caller's client, inside the caller's transaction.
 *
 * @example
 * const counts = await upsertByValues(tx, { table: 'deposits', key: ['account_uid', 'order_id'] }, rows);
 */
export async function upsertByValues(tx: { client: pg.ClientBase }, target: UpsertTarget, rows: readonly Row[], rowsPerStatement = 1000): Promise<UpsertCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const plan = upsertPlan(target, rows);
  const perStatement = Math.max(1, Math.min(rowsPerStatement, Math.floor(maxParameters / plan.columns.length)));
  const columns = plan.columns.map(quote).join(', ');
  let inserted = 0;
  let updated = 0;
  for (let start = 0; start < plan.rows.length; start += perStatement) {
    const chunk = plan.rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => `(${plan.columns.map((c) => { params.push(param(row[c])); return `$${params.length}`; }).join(', ')})`);
    const res = await tx.client.query<{ inserted: number; updated: number }>(
      `WITH up AS (INSERT INTO ${plan.table} AS t (${columns}) VALUES ${tuples.join(', ')} ${plan.conflict} RETURNING (t.xmax = 0) AS fresh)
       SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*) FILTER (WHERE NOT fresh)::int AS updated FROM up`,
      params,
    );
    inserted += res.rows[0]?.inserted ?? 0;
    updated += res.rows[0]?.updated ?? 0;
  }
  return { inserted, updated, unchanged: rows.length - inserted - updated };
}
