import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { RunningSandbox } from './sandbox.js';

/** Where each sandbox resource lands: table, id column, partition column (if any), time field. */
export const resourceTables: Record<string, { table: string; id: string; partition?: string; time: string }> = {
  spotOrders: { table: 'spot_orders', id: 'order_id', time: 'cTime' },
  spotFills: { table: 'spot_fills', id: 'trade_id', time: 'cTime' },
  spotBills: { table: 'spot_bills', id: 'bill_id', time: 'cTime' },
  marginRecords: { table: 'margin_records', id: 'id', partition: 'margin_type', time: 'ts' },
  crossMarginOrders: { table: 'cross_margin_orders', id: 'order_id', time: 'cTime' },
  futuresOrders: { table: 'futures_orders', id: 'order_id', partition: 'product_type', time: 'cTime' },
  futuresFills: { table: 'futures_fills', id: 'trade_id', partition: 'product_type', time: 'cTime' },
  futuresBills: { table: 'futures_bills', id: 'bill_id', partition: 'product_type', time: 'cTime' },
  planOrders: { table: 'plan_orders', id: 'order_id', partition: 'product_type', time: 'cTime' },
  deposits: { table: 'deposits', id: 'order_id', time: 'cTime' },
  withdrawals: { table: 'withdrawals', id: 'order_id', time: 'cTime' },
  transfers: { table: 'transfers', id: 'transfer_id', time: 'ts' },
  taxSpotRecords: { table: 'tax_spot_records', id: 'id', time: 'ts' },
  taxFutureRecords: { table: 'tax_future_records', id: 'id', time: 'ts' },
};

interface TruthLine { uid: string; resource: string; partition: string; id: string; record: Record<string, unknown> }

/**
 * Compares the database with the sandbox's ground truth, resource by resource: every truth
 * record the endpoints can serve (not hidden by a recorded history gap) must be stored with the
 * identical raw record, and nothing else may be stored. Returns the differences (empty = equal).
 * `only` limits the comparison to the resources a test synced (a transfer's other leg lives in
 * margin records or futures bills, which a deposits-and-transfers test does not read);
 * `readFrom` (Unix ms) leaves out what is older than the --since a test synced from.
 */
export async function diffAgainstTruth(
  sandbox: RunningSandbox, db: Kysely<any>, uids: readonly string[], only?: readonly string[], readFrom = -Infinity,
): Promise<{ differences: string[]; compared: number }> {
  const res = await fetch(`${sandbox.baseUrl}/_sandbox/truth`);
  const lines = (await res.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as TruthLine);
  const gaps = (await sql<{ account_uid: string; stream: string; partition: string; gap_to: Date }>`SELECT account_uid, stream, partition, gap_to FROM history_gaps`.execute(db)).rows;
  const differences: string[] = [];
  let compared = 0;
  for (const [resource, t] of Object.entries(resourceTables)) {
    if (only !== undefined && !only.includes(resource)) continue;
    const expected = new Map<string, string>();
    for (const l of lines) {
      if (l.resource !== resource || !uids.includes(l.uid)) continue;
      const at = Number(l.record[t.time]);
      if (at < readFrom) continue;
      // Not served: before the end of a recorded gap of its partition (a partition may have several).
      if (gaps.some((g) => g.account_uid === l.uid && g.stream === resource && (g.partition === l.partition || g.partition === 'all') && at < g.gap_to.getTime())) continue;
      expected.set(`${l.uid}|${t.partition ? l.partition : 'all'}|${l.id}`, canonical(l.record));
    }
    const partitionExpr = t.partition ? sql.ref(t.partition) : sql.lit('all');
    const { rows } = await sql<{ uid: string; p: string; id: string; raw: unknown }>`
      SELECT account_uid AS uid, ${partitionExpr} AS p, ${sql.ref(t.id)} AS id, raw FROM ${sql.table(t.table)}`.execute(db);
    const actual = new Map(rows.map((r) => [`${r.uid}|${r.p}|${r.id}`, canonical(r.raw)]));
    for (const [k, v] of expected) {
      compared++;
      const got = actual.get(k);
      if (got === undefined) differences.push(`${resource} ${k}: missing`);
      else if (got !== v) differences.push(`${resource} ${k}: raw differs\n  db:    ${got}\n  truth: ${v}`);
    }
    for (const k of actual.keys()) if (!expected.has(k)) differences.push(`${resource} ${k}: stored but not in truth`);
  }
  return { differences, compared };
}

/** JSON with sorted keys, so jsonb's key order does not matter. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v));
}
