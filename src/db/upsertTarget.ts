/**
 * A value for one column of a bulk-loaded row. Amounts and other numerics are strings (exact);
 * jsonb is its JSON text, as received; text[] is an array of strings. JS numbers are refused.
 */
export type RowValue = string | boolean | bigint | Date | null | readonly (string | null)[];

/** One row to load: column name to value. Every row of a batch has the same columns. */
export type Row = Readonly<Record<string, RowValue>>;

/** The table a bulk upsert writes, and what counts as a change. */
export interface UpsertTarget {
  /** Table name, optionally schema-qualified (`public.spot_orders`). */
  readonly table: string;
  /** The natural key: the columns of the table's primary key or a unique index. */
  readonly key: readonly string[];
  /**
   * Columns that decide whether an existing row changed; equal (IS NOT DISTINCT FROM) means
   * untouched. Default: `raw` when the rows have it, else every non-key column.
   */
  readonly compare?: readonly string[];
  /** SQL assignments added on a real change only, e.g. `updated_at = now()`. */
  readonly onChange?: readonly string[];
}

/** What a bulk upsert did. inserted + updated + unchanged = rows given. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  /** Rows equal to what was stored, plus repeats of a key within the batch (the last one wins). */
  unchanged: number;
}
