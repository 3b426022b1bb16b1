import type pg from 'pg';

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface UpsertSpec {
  readonly table: string;
  /** Primary key columns. */
  readonly key: readonly string[];
  /** Every column written, key columns included. */
  readonly columns: readonly string[];
  /** Columns that decide "changed": a row whose compared columns are equal is left untouched. */
  readonly compare: readonly string[];
  /** Extra assignments applied on a real change, e.g. `updated_at = now()`. */
  readonly onChange?: readonly string[];
}

/**
 * One multi-row INSERT ... ON CONFLICT DO UPDATE that touches only rows whose compared columns
 * changed, and reports inserted / updated / unchanged plus the keys of the changed rows (so
 * derived rows such as fees can be replaced). Rows must be unique by key. `alongside` (its
 * parameters numbered from $1) runs in the same statement.
 *
 * @example
 * const r = await upsertPage(tx.client, { table: 'deposits', key: ['account_uid', 'order_id'], columns, compare: ['raw'] }, rows);
 */
export async function upsertPage(
  client: Pick<pg.ClientBase, 'query'>, spec: UpsertSpec, rows: readonly (readonly unknown[])[], alongside?: { text: string; params: unknown[] },
): Promise<UpsertCounts & { changedKeys: string[][] }> {
  if (rows.length === 0) {
    if (alongside) await client.query(alongside.text, alongside.params);
    return { inserted: 0, updated: 0, unchanged: 0, changedKeys: [] };
  }
  const cols = spec.columns.map(q).join(', ');
  // A statement run alongside (the checkpoint) becomes a CTE: PostgreSQL runs data-modifying
  // CTEs exactly once, in the same statement, so both commit or neither does.
  const params: unknown[] = [...(alongside?.params ?? [])];
  const tuples = rows.map((row) => `(${row.map((v) => { params.push(v); return `$${params.length}`; }).join(', ')})`);
  const sets = spec.columns.filter((c) => !spec.key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  const changed = spec.compare.map((c) => `t.${q(c)} IS DISTINCT FROM EXCLUDED.${q(c)}`).join(' OR ');
  const text = `${alongside ? `WITH alongside AS (${alongside.text}) ` : ''}INSERT INTO ${q(spec.table)} AS t (${cols}) VALUES ${tuples.join(', ')}
    ON CONFLICT (${spec.key.map(q).join(', ')}) DO UPDATE SET ${[...sets, ...(spec.onChange ?? [])].join(', ')}
    WHERE ${changed}
    RETURNING (xmax = 0) AS inserted, ${spec.key.map((k) => `t.${q(k)}::text AS ${q(`k_${k}`)}`).join(', ')}`;
  const res = await client.query<Record<string, unknown>>(text, params);
  let inserted = 0;
  for (const r of res.rows) if (r.inserted === true) inserted++;
  const updated = res.rows.length - inserted;
  return {
    inserted, updated, unchanged: rows.length - res.rows.length,
    changedKeys: res.rows.map((r) => spec.key.map((k) => String(r[`k_${k}`]))),
  };
}

function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
