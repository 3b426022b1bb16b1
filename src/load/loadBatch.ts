import type { Kysely } from 'kysely';
import type { ClientBase } from 'pg';
import { withTransaction } from '../db/withTransaction.js';
import { poolOf } from '../db/createDb.js';
import { upsertLean } from './upsertHistory.js';
import type { LeanConstants, LeanFees, LeanTarget } from './upsertHistory.js';
import type { UpsertCounts } from './columnTypes.js';
import { sqlIdentifier as q } from '../db/sqlText.js';
import type { LeanRow } from './recordMapper.js';
import { asyncCommit } from './asyncCommit.js';

/** A batch of pages to commit: rows, their fee rows and the checkpoint that says they were read. */
export interface BatchLoad {
  readonly target: LeanTarget;
  readonly constants: LeanConstants;
  readonly rows: readonly LeanRow[];
  /** Fee rows by record id (only records whose row changed are rewritten). */
  readonly fees?: LeanFees;
  /** Stamp last_seen_at and seen_run_id on every row of the page (current-state streams). */
  readonly touchSeen?: boolean;
  /** The checkpoint statement committed with the page; absent for out-of-band refreshes (E15). */
  readonly alongside?: { readonly text: string; readonly params: unknown[] };
}

/**
 * Loads one batch of pages atomically: the upsert, the fee rows of changed records and the
 * checkpoint that says the pages were read, in one statement (plus the last-seen stamp, in one
 * transaction, for current-state streams). A crash before COMMIT leaves neither; after, both.
 * Rows are deduplicated by key first (a window edge or a page overlap can repeat a record).
 *
 * @example
 * const counts = await loadBatch(db, { target, constants, rows, alongside: checkpointStatement(state, checkpoint) });
 */
export async function loadBatch(db: Kysely<any>, load: BatchLoad): Promise<UpsertCounts> {
  const unique = new Map<string, LeanRow>();
  for (const r of load.rows) unique.set(r.key, r);
  const rows = [...unique.values()];
  if (!load.touchSeen) {
    // One statement: atomic without BEGIN/COMMIT, one round trip.
    const client = await poolOf(db).connect();
    let broken = true;
    try {
      await asyncCommit(client);
      // No transaction around it, so a plain INSERT that meets an existing key can fail and be redone as an upsert.
      const counts = await upsertLean(client, load.target, load.constants, rows, load.alongside, load.fees, { insertFirst: true });
      broken = false;
      return counts;
    } finally {
      // As pool.query does: a client whose statement failed is dropped, not handed back.
      client.release(broken);
    }
  }
  return withTransaction(db, async (tx) => {
    await asyncCommit(tx.client);
    const counts = await upsertLean(tx.client, load.target, load.constants, rows, load.alongside, load.fees);
    // A batch whose rows were all inserted just now has every stamp already (see touchSeen), and
    // the UPDATE would still look each key up: on a first sync, with no planner statistics yet,
    // PostgreSQL planned it as a scan of the whole table per batch (2 CPU-s of plan orders at 1M).
    if (counts.inserted < rows.length) await touchSeen(tx.client, load.target, load.constants, rows);
    return counts;
  });
}

async function touchSeen(client: ClientBase, target: LeanTarget, constants: LeanConstants, rows: LeanRow[]): Promise<void> {
  const arrays = target.key.map((_, n) => rows.map((r) => r.keyValues[n]));
  const match = target.key.map((k, n) => `t.${q(k)} = u.k${n}`).join(' AND ');
  const unnest = target.key.map((_, n) => `$${n + 3}::text[]`).join(', ');
  const names = target.key.map((_, n) => `k${n}`).join(', ');
  // Rows the upsert just inserted already carry both stamps (the insert writes seen_run_id, and
  // last_seen_at's default is now(), the transaction's time): stamping them again would write
  // every new row twice (on a first sync of plan orders, 3x the time of the upsert itself).
  await client.query(`UPDATE ${q(target.table)} t SET last_seen_at = now(), seen_run_id = $2::bigint
    FROM unnest(${unnest}) AS u(${names}) WHERE t.account_uid = $1 AND ${match}
      AND (t.seen_run_id IS DISTINCT FROM $2::bigint OR t.last_seen_at <> now())`, [constants.account, constants.runId, ...arrays]);
}
