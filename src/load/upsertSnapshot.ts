import type pg from 'pg';
import { storableValues } from './storableJson.js';

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
  /** jsonb columns whose values arrive as JSON text (not as the value itself), e.g. fee_detail. */
  readonly jsonText?: readonly string[];
}

/**
 * One INSERT ... ON CONFLICT DO UPDATE for a whole batch that touches only rows whose compared
 * columns changed, and reports inserted / updated / unchanged. Rows must be unique by key; values
 * are in `spec.columns` order: strings, string arrays, null, and for jsonb columns the JSON value
 * itself (or JSON text, for the columns named in `jsonText`). Snapshot streams load through it;
 * history streams send lean rows through upsertLean.
 *
 * @example
 * const r = await upsertPage(tx.client, { table: 'deposits', key: ['account_uid', 'order_id'], columns, compare: ['raw'] }, rows);
 */
export async function upsertPage(client: Pick<pg.ClientBase, 'query'>, spec: UpsertSpec, rows: readonly (readonly unknown[])[]): Promise<UpsertCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const cols = spec.columns.map(q).join(', ');
  // The batch travels as one jsonb parameter, an array of row arrays, read back column by column
  // with the table's own types: one native JSON.stringify here instead of a bound parameter per
  // value, one small statement to parse and plan instead of a VALUES list of thousands, and no
  // column names repeated per row on the wire.
  const types = await columnTypes(client, spec.table);
  const jsonText = new Set(spec.jsonText ?? []);
  const select = spec.columns.map((c, i) => readAs(c, i, types.get(c), jsonText.has(c))).join(', ');
  const sets = spec.columns.filter((c) => !spec.key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  const changed = spec.compare.map((c) => `t.${q(c)} IS DISTINCT FROM EXCLUDED.${q(c)}`).join(' OR ');
  const res = await client.query<{ inserted: number; changed: number }>(
    `WITH up AS (INSERT INTO ${q(spec.table)} AS t (${cols})
       SELECT ${select} FROM jsonb_array_elements($1::jsonb) AS e
       ON CONFLICT (${spec.key.map(q).join(', ')}) DO UPDATE SET ${[...sets, ...(spec.onChange ?? [])].join(', ')}
       WHERE ${changed}
       RETURNING (xmax = 0) AS fresh)
     SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*)::int AS changed FROM up`, [batchJson(rows, spec.columns.indexOf('problems'))]);
  const inserted = res.rows[0]?.inserted ?? 0;
  const changedRows = res.rows[0]?.changed ?? 0;
  return { inserted, updated: changedRows - inserted, unchanged: rows.length - changedRows };
}

// The batch as JSON, with any NUL character (which PostgreSQL refuses) stored as U+FFFD and flagged.
function batchJson(rows: readonly (readonly unknown[])[], problemsAt: number): string {
  const text = JSON.stringify(rows);
  return text.includes('\\u0000') ? JSON.stringify(rows.map((r) => storableValues(r, problemsAt))) : text;
}

/** Quotes an SQL identifier. */
export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

// Column types per table, read once per process (the schema is migrated before a sync starts).
const typeCache = new Map<string, Promise<Map<string, string>>>();

/**
 * The column types of a table (`format_type` text), read once per process.
 *
 * @example
 * (await columnTypes(client, 'deposits')).get('size') // 'numeric'
 */
export function columnTypes(client: Pick<pg.ClientBase, 'query'>, table: string): Promise<Map<string, string>> {
  let types = typeCache.get(table);
  if (types === undefined) {
    types = client.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, [q(table)],
    ).then((r) => new Map(r.rows.map((c) => [c.name, c.type])));
    types.catch(() => typeCache.delete(table));
    typeCache.set(table, types);
  }
  return types;
}

// The SQL that reads element `i` of a row array as the column's type; a JSON null is SQL NULL.
function readAs(column: string, i: number, type: string | undefined, jsonText: boolean): string {
  if (type === undefined) throw new Error(`upsertPage: the table has no column "${column}"`);
  if (type === 'jsonb') return jsonText ? `(e->>${i})::jsonb` : `NULLIF(e->${i}, 'null'::jsonb)`;
  if (type.endsWith('[]')) return `CASE WHEN jsonb_typeof(e->${i}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(e->${i}))::${type} END`;
  return `(e->>${i})::${type}`;
}
