import type { AccountRun } from './accountRun.js';
import type { Partition, SnapshotStream } from './streamDef.js';
import { columnsOf, recordRow } from './recordRow.js';
import type { RecordRow } from './recordRow.js';
import { withTransaction } from '../db/withTransaction.js';
import { upsertPage } from '../load/upsertSnapshot.js';
import { jsonTextColumns } from '../load/column.js';
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
  const account = stream.accountColumn === null ? null : run.account.uid;
  const unique = new Map<string, RecordRow>();
  for (const raw of records) {
    const row = recordRow(stream.shape ?? stream.name, account, partition, stream.columns, stream.key, raw);
    row.values.unshift(run.snapshotAt);
    row.values.push(run.runId);
    unique.set(row.key, row);
  }
  const columns = ['snapshot_at', ...columnsOf(stream.accountColumn, Object.keys(partition.columns), stream.columns), 'run_id'];
  const got = await withTransaction(run.db, (tx) => upsertPage(tx.client, { table: stream.table, key: ['snapshot_at', ...stream.key], columns, compare: ['raw'], jsonText: jsonTextColumns(stream.columns) }, [...unique.values()].map((r) => r.values)));
  counts.inserted = got.inserted;
  counts.updated = got.updated;
  counts.unchanged = got.unchanged;
  return counts;
}
