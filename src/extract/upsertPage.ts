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
  /** jsonb columns whose values arrive as JSON text (not as the value itself), e.g. fee_detail. */
  readonly jsonText?: readonly string[];
}

/**
 * One INSERT ... ON CONFLICT DO UPDATE for a whole batch that touches only rows whose compared
 * columns changed, and reports inserted / updated / unchanged plus the keys of the changed rows (so
 * derived rows such as fees can be replaced). Rows must be unique by key; values are in
 * `spec.columns` order: strings, string arrays, null, and for jsonb columns the JSON value itself
 * (or JSON text, for the columns named in `jsonText`). `alongside` (its parameters numbered from
 * $1) runs in the same statement. `changedKeys: false` returns the counts only (no keys).
 *
 * @example
 * const r = await upsertPage(tx.client, { table: 'deposits', key: ['account_uid', 'order_id'], columns, compare: ['raw'] }, rows);
 */
export async function upsertPage(
  client: Pick<pg.ClientBase, 'query'>, spec: UpsertSpec, rows: readonly (readonly unknown[])[], alongside?: { text: string; params: unknown[] },
  options: { changedKeys?: boolean } = {},
): Promise<UpsertCounts & { changedKeys: string[][] }> {
  if (rows.length === 0) {
    if (alongside) await client.query(alongside.text, alongside.params);
    return { inserted: 0, updated: 0, unchanged: 0, changedKeys: [] };
  }
  const cols = spec.columns.map(q).join(', ');
  // The batch travels as one jsonb parameter, an array of row arrays, read back column by column
  // with the table's own types: one native JSON.stringify here instead of a bound parameter per
  // value, one small statement to parse and plan instead of a VALUES list of thousands, and no
  // column names repeated per row on the wire.
  const batch = JSON.stringify(rows);
  const params: unknown[] = [...(alongside?.params ?? []), batch];
  const types = await columnTypes(client, spec.table);
  const jsonText = new Set(spec.jsonText ?? []);
  const select = spec.columns.map((c, i) => readAs(c, i, types.get(c), jsonText.has(c))).join(', ');
  const sets = spec.columns.filter((c) => !spec.key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  const changed = spec.compare.map((c) => `t.${q(c)} IS DISTINCT FROM EXCLUDED.${q(c)}`).join(' OR ');
  const upsert = `INSERT INTO ${q(spec.table)} AS t (${cols})
    SELECT ${select} FROM jsonb_array_elements($${params.length}::jsonb) AS e
    ON CONFLICT (${spec.key.map(q).join(', ')}) DO UPDATE SET ${[...sets, ...(spec.onChange ?? [])].join(', ')}
    WHERE ${changed}`;
  // A statement run alongside (the checkpoint) becomes a CTE: PostgreSQL runs data-modifying
  // CTEs exactly once, in the same statement, so both commit or neither does.
  const ctes = alongside ? [`alongside AS (${alongside.text})`] : [];
  if (options.changedKeys === false) {
    // Only the counts come back, not a row per changed record.
    const res = await client.query<{ inserted: number; changed: number }>(
      `WITH ${[...ctes, `up AS (${upsert} RETURNING (xmax = 0) AS fresh)`].join(', ')}
       SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*)::int AS changed FROM up`, params);
    const inserted = res.rows[0]?.inserted ?? 0;
    const changedRows = res.rows[0]?.changed ?? 0;
    return { inserted, updated: changedRows - inserted, unchanged: rows.length - changedRows, changedKeys: [] };
  }
  const text = `${ctes.length > 0 ? `WITH ${ctes.join(', ')} ` : ''}${upsert}
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
