import type pg from 'pg';
import { sqlIdentifier } from '../db/sqlText.js';

// Column types per table, read once per process (the schema is migrated before a sync starts).
const typeCache = new Map<string, Promise<Map<string, string>>>();

/**
 * The column types of a table (`format_type` text), read once per process: the loaders cast
 * what they send to them.
 *
 * @example
 * (await columnTypes(client, 'deposits')).get('size') // 'numeric'
 */
export function columnTypes(client: Pick<pg.ClientBase, 'query'>, table: string): Promise<Map<string, string>> {
  let types = typeCache.get(table);
  if (types === undefined) {
    types = client.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, [sqlIdentifier(table)],
    ).then((r) => new Map(r.rows.map((c) => [c.name, c.type])));
    types.catch(() => typeCache.delete(table));
    typeCache.set(table, types);
  }
  return types;
}

/**
 * A lookup of a table's column types that names the table and column when one is missing.
 *
 * @example
 * const typeOf = columnTypeOf('deposits', await columnTypes(client, 'deposits')); typeOf('size') // 'numeric'
 */
export function columnTypeOf(table: string, types: ReadonlyMap<string, string>): (column: string) => string {
  return (c) => {
    const t = types.get(c);
    if (t === undefined) throw new Error(`the table ${table} has no column "${c}"`);
    return t;
  };
}

/** Rows a batch upsert inserted, changed, or found equal and left alone. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}
