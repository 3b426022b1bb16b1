import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FeeRow } from '../normalize/feeRow.js';
import type { Column } from './column.js';
import type { LeanRow } from './recordMapper.js';
import { leanInsert } from './leanInsert.js';
import { sqlIdentifier as q } from '../db/sqlText.js';
import { columnTypeOf, columnTypes } from './columnTypes.js';
import type { UpsertCounts } from './columnTypes.js';

/** The history table a lean batch goes to. Its primary key is account_uid, partition and record key columns. */
export interface LeanTarget {
  readonly table: string;
  /** Key columns after account_uid. */
  readonly key: readonly string[];
  readonly partitionColumns: readonly string[];
  readonly columns: Readonly<Record<string, Column>>;
}

/** The values every row of one batch shares. */
export interface LeanConstants {
  readonly account: string;
  readonly partition: Readonly<Record<string, string>>;
  readonly runId: string;
}

/** Fee rows of a batch, by record id; written only for the records whose row changed. */
export interface LeanFees {
  readonly source: string;
  readonly byId: ReadonlyMap<string, readonly FeeRow[]>;
}

/** How upsertLean may load a batch. */
export interface LeanOptions {
  /**
   * Allowed only when the client is NOT inside a transaction (a failed statement would abort it).
   * Once a batch of a target (table, account, partition) came back all new, the next batches of
   * that target are first sent as a plain INSERT, without ON CONFLICT: PostgreSQL then checks each
   * key once instead of twice (no speculative insertion), which is most of a first sync. A key that
   * exists makes that statement fail as a whole; the batch is then upserted, and so is every later
   * batch of the target in this process.
   */
  readonly insertFirst?: boolean;
}

// Per target (table, account, partition): 'insert' after a batch came back all new, 'conflict'
// after a plain INSERT met an existing key. Bounded by the number of partitions a process loads.
const insertFirstState = new Map<string, 'insert' | 'conflict'>();

/**
 * One statement that upserts a batch of lean rows (typed columns derived from raw in SQL, see
 * recordMapper), touches only rows whose raw or problems changed, replaces the fee rows of the changed
 * records, and runs `alongside` (the checkpoint) in the same statement: all of it commits or none
 * does, without BEGIN/COMMIT round trips. Rows must be unique by key.
 *
 * @example
 * const counts = await upsertLean(client, target, { account, partition: {}, runId }, rows, checkpoint, fees);
 */
export async function upsertLean(
  client: Pick<pg.ClientBase, 'query'>, target: LeanTarget, constants: LeanConstants, rows: readonly LeanRow[],
  alongside?: { text: string; params: unknown[] }, fees?: LeanFees, options: LeanOptions = {},
): Promise<UpsertCounts> {
  if (rows.length === 0) {
    if (alongside) await client.query(alongside.text, alongside.params);
    return { inserted: 0, updated: 0, unchanged: 0 };
  }
  const params: unknown[] = [...(alongside?.params ?? [])];
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  const types = await columnTypes(client, target.table);
  const typeOf = columnTypeOf(target.table, types);
  const account = param(constants.account);
  const { names, select, raws, sets } = leanInsert([['account_uid', `${account}::text`]], target,
    constants.partition, 'seen_run_id', constants.runId, rows, typeOf, param);
  const key = ['account_uid', ...target.key];
  const assignments = names.filter((c) => !key.includes(c)).map((c) => `${q(c)} = EXCLUDED.${q(c)}`);
  const id = target.key[target.key.length - 1] ?? '';
  const returning = fees
    ? `(xmax = 0) AS fresh, t.${q(id)}::text AS id, ${types.has('c_time') ? 't.c_time' : 'NULL::timestamptz'} AS c_time`
    : '(xmax = 0) AS fresh';
  const statement = (plain: boolean) => {
    const ctes = alongside ? [`alongside AS (${alongside.text})`] : [];
    ctes.push(`up AS (INSERT INTO ${q(target.table)} AS t (${names.map(q).join(', ')})
    SELECT ${select.join(', ')}
    FROM ROWS FROM (jsonb_array_elements(${raws}::jsonb), jsonb_array_elements(${sets}::jsonb)) AS x(r, o)${plain ? '' : `
    ON CONFLICT (${key.map(q).join(', ')}) DO UPDATE SET ${[...assignments, 'updated_at = now()'].join(', ')}
    WHERE t.raw IS DISTINCT FROM EXCLUDED.raw OR t.problems IS DISTINCT FROM EXCLUDED.problems`}
    RETURNING ${returning})`);
    if (feeSql) ctes.push(...(plain ? feeSql.plain : feeSql.upsert));
    return `WITH ${ctes.join(',\n')}
     SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*)::int AS changed FROM up`;
  };
  const feeSql = fees ? feeStatements(fees, account, param) : undefined;
  const run = async (plain: boolean) => {
    // A named (prepared) statement: each pooled connection parses and plans it once and then
    // reuses the plan. The text depends only on the table, the stream, the form (plain or upsert)
    // and whether fee rows and a checkpoint ride along, so a sync prepares a handful per connection.
    const text = statement(plain);
    const res = await client.query<{ inserted: number; changed: number }>({ name: statementName(text), text, values: params });
    return { inserted: res.rows[0]?.inserted ?? 0, changed: res.rows[0]?.changed ?? 0 };
  };
  const memo = options.insertFirst ? `${target.table}\u0000${constants.account}\u0000${JSON.stringify(constants.partition)}` : undefined;
  let result: { inserted: number; changed: number } | undefined;
  if (memo !== undefined && insertFirstState.get(memo) === 'insert') {
    try {
      result = await run(true);
    } catch (e) {
      // A key that is already there: the plain INSERT failed as a whole (one statement, no
      // transaction around it), so nothing of it stays. Upsert, and do so from now on.
      if ((e as { code?: string }).code !== '23505') throw e;
      insertFirstState.set(memo, 'conflict');
    }
  }
  if (result === undefined) {
    result = await run(false);
    if (memo !== undefined && !insertFirstState.has(memo) && result.inserted === rows.length) insertFirstState.set(memo, 'insert');
  }
  const { inserted, changed } = result;
  return { inserted, updated: changed - inserted, unchanged: rows.length - changed };
}

// A prepared statement's name, from its text: equal texts share a name, different texts never do.
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tl_lean_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

// The fee rows of the records whose row changed replace what was there: rows past the new count
// are deleted, the others inserted or overwritten. The two touch different rows, as two
// data-modifying CTEs of one statement must.
function feeStatements(fees: LeanFees, account: string, param: (v: unknown) => string): { upsert: string[]; plain: string[] } {
  const flat: Record<string, unknown>[] = [];
  for (const [sourceId, rows] of fees.byId) {
    rows.forEach((f, seq) => flat.push({
      // (An id holding NUL is stored with U+FFFD, as its record is: see storableJson.)
      source_id: sourceId.replaceAll('\u0000', '\uFFFD'), seq, coin: f.coin, paid: f.paid, platform_deducted: f.platformDeducted,
      coupon_covered: f.couponCovered, payable_in_received_coin: f.payableInReceivedCoin, format: f.format, rebate: f.rebate,
    }));
  }
  const source = param(fees.source);
  const list = param(JSON.stringify(flat));
  const fee = `fee AS (SELECT * FROM jsonb_populate_recordset(NULL::fees, ${list}::jsonb))`;
  const insert = `fee_ins AS (INSERT INTO fees AS f (account_uid, source, source_id, seq, coin, paid, platform_deducted, coupon_covered,
        payable_in_received_coin, format, rebate, c_time)
      SELECT ${account}, ${source}, fee.source_id, fee.seq, fee.coin, fee.paid, fee.platform_deducted, fee.coupon_covered,
        fee.payable_in_received_coin, fee.format, fee.rebate, up.c_time
      FROM fee JOIN up ON up.id = fee.source_id`;
  return {
    upsert: [
      fee,
      `fee_count AS (SELECT source_id, count(*) AS n FROM fee GROUP BY source_id)`,
      `fee_del AS (DELETE FROM fees f USING up LEFT JOIN fee_count c ON c.source_id = up.id
      WHERE NOT up.fresh AND f.account_uid = ${account} AND f.source = ${source} AND f.source_id = up.id AND f.seq >= COALESCE(c.n, 0))`,
      `${insert}
      ON CONFLICT (account_uid, source, source_id, seq) DO UPDATE SET coin = EXCLUDED.coin, paid = EXCLUDED.paid,
        platform_deducted = EXCLUDED.platform_deducted, coupon_covered = EXCLUDED.coupon_covered,
        payable_in_received_coin = EXCLUDED.payable_in_received_coin, format = EXCLUDED.format, rebate = EXCLUDED.rebate,
        c_time = EXCLUDED.c_time)`,
    ],
    // Every record of a plain INSERT is new, so none has old fee rows to delete.
    plain: [fee, `${insert})`],
  };
}
