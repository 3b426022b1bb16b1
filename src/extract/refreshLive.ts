import { sql } from 'kysely';
import type { AccountRun } from './accountRun.js';
import type { HistoryStream, LiveRefresh, Partition } from './streamDef.js';
import { loadTarget, toRow } from './pageRecords.js';
import { loadBatch } from '../load/loadBatch.js';
import { batchFees } from '../load/batchLoader.js';
import { feeSource } from '../load/feeRows.js';
import { asList } from './asList.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/**
 * Re-reads, as the stream's `refreshLive` declares, the records that were still live at the last
 * sync and that this run's windows did not cover (created before `coveredFrom`: older than the
 * look-back, or beyond the endpoint's horizon), so a later fill or cancel is recorded.
 *
 * @example
 * const counts = await refreshLive(run, spotOrders, spotOrders.refreshLive, single[0], firstWindowStart);
 */
export async function refreshLive(run: AccountRun, stream: HistoryStream, refresh: LiveRefresh, partition: Partition, coveredFrom: number | undefined): Promise<StreamCounts> {
  const from = new Date(coveredFrom ?? run.now).toISOString();
  const idColumn = stream.key[stream.key.length - 1]!;
  const { rows } = await sql<{ id: string }>`
    SELECT ${sql.ref(idColumn)} AS id FROM ${sql.table(stream.table)} WHERE account_uid = ${run.account.uid}
      AND ${sql.ref(refresh.statusColumn)} IN (${sql.join(refresh.liveStatuses)})
      AND (${sql.ref(refresh.timeColumn)} IS NULL OR ${sql.ref(refresh.timeColumn)} < ${from}::timestamptz)
    ORDER BY 1`.execute(run.db);
  const counts = emptyCounts();
  const spec = loadTarget(run, stream, partition);
  for (const { id } of rows) {
    const found = asList(await run.call(refresh.endpoint, { [refresh.idParam]: id }));
    counts.requests++;
    const loaded = found.map((raw) => toRow(run, stream, partition, raw));
    const fees = stream.fees && batchFees(feeSource[stream.fees], loaded);
    const got = await loadBatch(run.db, { ...spec, rows: loaded, ...(fees ? { fees } : {}) });
    counts.inserted += got.inserted;
    counts.updated += got.updated;
    counts.unchanged += got.unchanged;
  }
  return counts;
}
