import type pg from 'pg';
import type { Column } from './column.js';
import type { LeanRow } from './recordMapper.js';
import { leanInsert } from './leanInsert.js';
import { sqlIdentifier as q } from '../db/sqlText.js';
import { columnTypeOf, columnTypes } from './columnTypes.js';
import type { UpsertCounts } from './columnTypes.js';

/** The snapshot table a batch goes to. Its primary key is snapshot_at plus `key`. */
export interface SnapshotTarget {
  readonly table: string;
  /** The primary key without snapshot_at (the account column included, when there is one). */
  readonly key: readonly string[];
  /** The column naming the account (account_uid, or main_uid for sub-account listings); null when global. */
  readonly accountColumn: string | null;
  readonly partitionColumns: readonly string[];
  readonly columns: Readonly<Record<string, Column>>;
}

/** The values every row of one snapshot batch shares. */
export interface SnapshotConstants {
  /** ISO time: the one snapshot time of the run. */
  readonly snapshotAt: string;
  readonly account: string | null;
  readonly partition: Readonly<Record<string, string>>;
  readonly runId: string;
}

/**
 * One INSERT ... ON CONFLICT DO UPDATE for a whole snapshot batch, in the same lean form history
 * rows travel in (raw records plus only the values PostgreSQL cannot derive, see recordMapper),
 * stamped with the run's snapshot time. It touches only rows whose raw record changed (a rerun of
 * the same run after a crash writes nothing twice) and reports inserted / updated / unchanged.
 * Rows must be unique by key.
 *
 * @example
 * const counts = await upsertSnapshot(tx.client, target, { snapshotAt, account: uid, partition: {}, runId }, rows);
 */
export async function upsertSnapshot(client: Pick<pg.ClientBase, 'query'>, target: SnapshotTarget, constants: SnapshotConstants, rows: readonly LeanRow[]): Promise<UpsertCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const params: unknown[] = [];
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  const typeOf = columnTypeOf(target.table, await columnTypes(client, target.table));
  const lead: [string, string][] = [['snapshot_at', `${param(constants.snapshotAt)}::timestamptz`]];
  if (target.accountColumn !== null) lead.push([target.accountColumn, `${param(constants.account)}::${typeOf(target.accountColumn)}`]);
  const { names, select, raws, sets } = leanInsert(lead, target, constants.partition, 'run_id', constants.runId, rows, typeOf, param);
  const key = ['snapshot_at', ...target.key];
  const assignments = names.filter((c) => !key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  const res = await client.query<{ inserted: number; changed: number }>(
    `WITH up AS (INSERT INTO ${q(target.table)} AS t (${names.map(q).join(', ')})
       SELECT ${select.join(', ')}
       FROM ROWS FROM (jsonb_array_elements(${raws}::jsonb), jsonb_array_elements(${sets}::jsonb)) AS x(r, o)
       ON CONFLICT (${key.map(q).join(', ')}) DO UPDATE SET ${assignments.join(', ')}
       WHERE t.raw IS DISTINCT FROM EXCLUDED.raw
       RETURNING (xmax = 0) AS fresh)
     SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*)::int AS changed FROM up`, params);
  const inserted = res.rows[0]?.inserted ?? 0;
  const changed = res.rows[0]?.changed ?? 0;
  return { inserted, updated: changed - inserted, unchanged: rows.length - changed };
}
