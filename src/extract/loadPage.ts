import type { Kysely } from 'kysely';
import type { ClientBase } from 'pg';
import { withTransaction } from '../db/withTransaction.js';
import { poolOf } from '../db/createDb.js';
import type { FeeRow } from '../normalize/feeRow.js';
import { upsertPage } from './upsertPage.js';
import type { UpsertCounts, UpsertSpec } from './upsertPage.js';
import type { RecordRow } from './recordRow.js';
import { checkpointStatement } from './syncState.js';
import { asyncCommit } from './asyncCommit.js';
import type { CheckpointWrite, StateKey } from './syncState.js';

/** The fee rows a page brings, per record key (only records whose row changed are rewritten). */
export interface PageFees {
  readonly source: string;
  readonly account: string;
  readonly byKey: ReadonlyMap<string, { sourceId: string; cTime: string | null; rows: readonly FeeRow[] }>;
}

export interface PageLoad {
  readonly spec: UpsertSpec;
  readonly rows: readonly RecordRow[];
  readonly fees?: PageFees;
  /** Stamp last_seen_at and seen_run_id on every row of the page (current-state streams). */
  readonly touchSeen?: { readonly runId: string };
  /** The checkpoint committed with the page; absent for out-of-band refreshes (E15). */
  readonly state?: StateKey;
  readonly checkpoint?: CheckpointWrite;
}

/**
 * Loads one page atomically: the upsert, the fee rows of changed records, and the checkpoint
 * that says the page was read (one statement when there is nothing else to write, otherwise one
 * transaction). A crash before COMMIT leaves neither; after, both.
 * Rows are deduplicated by key first (a window edge or a page overlap can repeat a record).
 *
 * @example
 * const counts = await loadPage(db, { spec, rows, state, checkpoint });
 */
export async function loadPage(db: Kysely<any>, load: PageLoad): Promise<UpsertCounts> {
  const unique = new Map<string, RecordRow>();
  for (const r of load.rows) unique.set(r.key, r);
  const rows = [...unique.values()];
  const checkpoint = load.state && load.checkpoint ? checkpointStatement(load.state, load.checkpoint) : undefined;
  const values = rows.map((r) => r.values);
  if (!load.fees && !load.touchSeen) {
    // Rows and checkpoint in one statement: atomic without BEGIN/COMMIT, one round trip.
    const client = await poolOf(db).connect();
    let broken = true;
    try {
      await asyncCommit(client);
      const counts = await upsertPage(client, load.spec, values, checkpoint, { changedKeys: false });
      broken = false;
      return { inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged };
    } finally {
      // As pool.query does: a client whose statement failed is dropped, not handed back.
      client.release(broken);
    }
  }
  return withTransaction(db, async (tx) => {
    await asyncCommit(tx.client);
    const counts = await upsertPage(tx.client, load.spec, values, checkpoint);
    if (load.fees && counts.changedKeys.length > 0) await replaceFees(tx.client, load.fees, counts.changedKeys.map((k) => k.join('\u0000')));
    if (load.touchSeen && rows.length > 0) await touchSeen(tx.client, load.spec, rows, load.touchSeen.runId);
    return { inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged };
  });
}

async function replaceFees(client: ClientBase, fees: PageFees, changed: string[]): Promise<void> {
  const items = changed.map((k) => fees.byKey.get(k)).filter((x) => x !== undefined);
  if (items.length === 0) return;
  await client.query('DELETE FROM fees WHERE account_uid = $1 AND source = $2 AND source_id = ANY($3::text[])',
    [fees.account, fees.source, items.map((i) => i.sourceId)]);
  // One jsonb parameter typed by the fees row type, rather than ten parallel arrays.
  const flat: Record<string, unknown>[] = [];
  for (const item of items) {
    item.rows.forEach((f, seq) => flat.push({
      source_id: item.sourceId, seq, coin: f.coin, paid: f.paid, platform_deducted: f.platformDeducted,
      coupon_covered: f.couponCovered, payable_in_received_coin: f.payableInReceivedCoin, format: f.format,
      rebate: f.rebate, c_time: item.cTime,
    }));
  }
  if (flat.length === 0) return;
  await client.query(`
    INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, platform_deducted, coupon_covered,
                      payable_in_received_coin, format, rebate, c_time)
    SELECT $1, $2, r.source_id, r.seq, r.coin, r.paid, r.platform_deducted, r.coupon_covered,
           r.payable_in_received_coin, r.format, r.rebate, r.c_time
    FROM jsonb_populate_recordset(NULL::fees, $3::jsonb) AS r`, [fees.account, fees.source, JSON.stringify(flat)]);
}

async function touchSeen(client: ClientBase, spec: UpsertSpec, rows: RecordRow[], runId: string): Promise<void> {
  const keyIdx = spec.key.map((k) => spec.columns.indexOf(k));
  const arrays = keyIdx.map((i) => rows.map((r) => r.values[i]));
  const match = spec.key.map((k, n) => `t."${k}" = u.k${n}`).join(' AND ');
  const unnest = spec.key.map((_, n) => `$${n + 1}::text[]`).join(', ');
  const names = spec.key.map((_, n) => `k${n}`).join(', ');
  await client.query(`UPDATE "${spec.table}" t SET last_seen_at = now(), seen_run_id = $${arrays.length + 1}::bigint
    FROM unnest(${unnest}) AS u(${names}) WHERE ${match}`, [...arrays, runId]);
}
