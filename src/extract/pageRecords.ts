import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition, SnapshotStream } from './streamDef.js';
import { recordMapper } from '../load/recordMapper.js';
import type { LeanRow, RecordMapper } from '../load/recordMapper.js';
import type { LeanConstants, LeanTarget } from '../load/upsertHistory.js';

const mappers = new WeakMap<HistoryStream | SnapshotStream, RecordMapper>();

/**
 * A stream's record mapper, compiled once per process: history and snapshot records go through
 * the same one (see recordMapper).
 *
 * @example
 * const row = mapperOf(deposits)(raw, partition.columns);
 */
export function mapperOf(stream: HistoryStream | SnapshotStream): RecordMapper {
  let map = mappers.get(stream);
  if (map === undefined) {
    map = recordMapper(stream.kind === 'history'
      ? { resource: stream.name, columns: stream.columns, key: stream.key, fees: stream.fees }
      : { resource: stream.shape ?? stream.name, columns: stream.columns, key: stream.key });
    mappers.set(stream, map);
  }
  return map;
}

/**
 * One history record as a row to load (with `problems` the pager found, such as a time outside
 * the window); the history pager and a stream's refresh of live records both map through it.
 *
 * @example
 * const row = toRow(run, spotOrders, single[0], rawOrder);
 */
export function toRow(run: AccountRun, stream: HistoryStream, partition: Partition, raw: unknown, problems: readonly string[] = []): LeanRow {
  return mapperOf(stream)(raw, partition.columns, problems, run.coinsOf);
}

/**
 * Where a stream's rows go, and the values all rows of one partition share.
 *
 * @example
 * const { target, constants } = loadTarget(run, deposits, single[0]);
 */
export function loadTarget(run: AccountRun, stream: HistoryStream, partition: Partition): { target: LeanTarget; constants: LeanConstants } {
  return {
    target: { table: stream.table, key: stream.key, partitionColumns: Object.keys(partition.columns), columns: stream.columns },
    constants: { account: run.account.uid, partition: partition.columns, runId: run.runId },
  };
}
