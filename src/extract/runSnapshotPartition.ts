import type { AccountRun } from './accountRun.js';
import type { Partition, SnapshotStream } from './streamDef.js';
import type { LeanRow } from '../load/recordMapper.js';
import { withTransaction } from '../db/withTransaction.js';
import { upsertSnapshot } from '../load/upsertSnapshot.js';
import { mapperOf } from './pageRecords.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/**
 * Stores one partition of a snapshot stream as of this run: every row stamped with the run's
 * snapshot_at. Rerunning the same run (after a crash) writes nothing twice.
 *
 * @example
 * const counts = await runSnapshotPartition(run, positions, byProductType(ctx)[0]);
 */
export async function runSnapshotPartition(run: AccountRun, stream: SnapshotStream, partition: Partition): Promise<StreamCounts> {
  const records = await stream.fetch(run.call, partition);
  const counts = emptyCounts();
  counts.requests = 1;
  counts.pages = 1;
  const map = mapperOf(stream);
  const unique = new Map<string, LeanRow>();
  for (const raw of records) {
    const row = map(raw, partition.columns);
    unique.set(row.key, row);
  }
  run.assertHeld();
  const got = await withTransaction(run.db, async (tx) => {
    // The account's fence, in the snapshot's own transaction: a run that lost its lock writes nothing.
    await tx.client.query('SELECT tradeledger_fence($1, $2::bigint)', [run.account.uid, run.runId]);
    return upsertSnapshot(tx.client,
      { table: stream.table, key: stream.key, accountColumn: stream.accountColumn, partitionColumns: Object.keys(partition.columns), columns: stream.columns },
      { snapshotAt: run.snapshotAt, account: stream.accountColumn === null ? null : run.account.uid, partition: partition.columns, runId: run.runId },
      [...unique.values()]);
  });
  counts.inserted = got.inserted;
  counts.updated = got.updated;
  counts.unchanged = got.unchanged;
  return counts;
}
