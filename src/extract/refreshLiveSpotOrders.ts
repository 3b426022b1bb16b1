import { sql } from 'kysely';
import type { AccountRun } from './accountRun.js';
import { spotOrders } from './streams/spotOrders.js';
import { single } from './partitions.js';
import { loadTarget, pageFees, toRow } from './pageRecords.js';
import { loadPage } from '../load/loadBatch.js';
import { asList } from './asList.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/**
 * Re-reads through E15 the spot orders that were live or partially filled at the last sync and
 * that this run's history windows did not cover (older than the look-back, or beyond X1's
 * 90-day horizon), so a later fill or cancel is recorded.
 *
 * @example
 * const counts = await refreshLiveSpotOrders(run, firstWindowStart);
 */
export async function refreshLiveSpotOrders(run: AccountRun, coveredFrom: number | undefined): Promise<StreamCounts> {
  const from = new Date(coveredFrom ?? run.timing.now).toISOString();
  const { rows } = await sql<{ order_id: string }>`
    SELECT order_id FROM spot_orders WHERE account_uid = ${run.account.uid}
      AND status IN ('live', 'partially_filled') AND (c_time IS NULL OR c_time < ${from}::timestamptz)
    ORDER BY order_id`.execute(run.db);
  const counts = emptyCounts();
  const partition = single[0]!;
  const spec = loadTarget(run, spotOrders, partition);
  for (const { order_id: orderId } of rows) {
    const found = asList(await run.call('spotOrderInfo', { orderId }));
    counts.requests++;
    const loaded = found.map((raw) => toRow(run, spotOrders, partition, raw));
    const fees = pageFees(spotOrders, loaded);
    const got = await loadPage(run.db, { ...spec, rows: loaded.map((l) => l.row), ...(fees ? { fees } : {}) });
    counts.inserted += got.inserted;
    counts.updated += got.updated;
    counts.unchanged += got.unchanged;
  }
  return counts;
}
