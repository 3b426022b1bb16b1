import type { Column } from './column.js';
import { sqlColumn, sqlProblems } from './column.js';
import type { LeanRow } from './recordMapper.js';
import { leanBatchJson } from './storableJson.js';

/** What a lean batch's INSERT needs: the target's columns in order, and how to read each from a row. */
export interface LeanInsert {
  readonly names: string[];
  /** One SELECT expression per name, over `x(r, o)`: r the raw record, o the values sent beside it. */
  readonly select: string[];
  /** The parameters holding the batch: raw records and the values beside them, as two JSON arrays. */
  readonly raws: string;
  readonly sets: string;
}

/**
 * The column list and SELECT of a lean batch, shared by the history and the snapshot upsert:
 * the leading columns the caller gives (account, snapshot time), the partition columns, every
 * typed column read from raw in SQL (`sqlColumn`), then raw, problems and the run column.
 * Parameters are added through `param` in statement order.
 *
 * @example
 * const ins = leanInsert([['account_uid', `${param(account)}::text`]], target, partition, 'seen_run_id', runId, rows, typeOf, param);
 */
export function leanInsert(
  lead: readonly (readonly [name: string, expression: string])[],
  target: { readonly partitionColumns: readonly string[]; readonly columns: Readonly<Record<string, Column>> },
  partition: Readonly<Record<string, string>>, runColumn: string, runId: string, rows: readonly LeanRow[],
  typeOf: (column: string) => string, param: (value: unknown) => string,
): LeanInsert {
  const names = lead.map(([name]) => name);
  const select = lead.map(([, expression]) => expression);
  for (const c of target.partitionColumns) {
    names.push(c);
    select.push(`${param(partition[c] ?? null)}::${typeOf(c)}`);
  }
  for (const [name, column] of Object.entries(target.columns)) {
    names.push(name);
    select.push(sqlColumn(name, column, typeOf(name)));
  }
  names.push('raw', 'problems', runColumn);
  select.push('r', sqlProblems, `${param(runId)}::bigint`);
  // Raw records and the values sent beside them travel as two JSON arrays, zipped row by row.
  const json = leanBatchJson(rows);
  return { names, select, raws: param(json.raws), sets: param(json.sets) };
}
