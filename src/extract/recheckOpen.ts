import { sql } from 'kysely';
import type { AccountRun } from './accountRun.js';
import type { HistoryStream, OpenRecheck, Partition } from './streamDef.js';
import { loadTarget, toRow } from './pageRecords.js';
import { loadBatch } from '../load/loadBatch.js';
import { fenceStatement } from './syncLock.js';
import { batchFees } from '../load/batchLoader.js';
import { feeSource } from '../load/feeRows.js';
import type { LeanRow } from '../load/recordMapper.js';
import { WindowPages } from './windowPages.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/**
 * Re-reads, as the stream's `recheckOpen` declares, the records of one partition whose status
 * is not final yet (view `open_records`, sql/schema/views/open_records.sql) and that this run's windows did not cover
 * (created before `coveredFrom`: older than the look-back, or beyond the endpoint's horizon), so
 * a later fill, cancel or settling is recorded however old the record is. The records inside the
 * windows were just read again by the walk. Cost: one request per open record (per distinct
 * moment for a re-read by time); none when nothing is open.
 *
 * A record belongs to the partition its `partition_hint` names (E13's symbol, E19's sending
 * sub-account); one whose hint names no other partition of the stream belongs to 'all'.
 *
 * @example
 * const counts = await recheckOpen(run, deposits, deposits.recheckOpen, single[0], ['all'], firstWindowStart);
 */
export async function recheckOpen(
  run: AccountRun, stream: HistoryStream, recheck: OpenRecheck, partition: Partition, partitionKeys: readonly string[], coveredFrom: number | undefined,
): Promise<StreamCounts> {
  const from = new Date(coveredFrom ?? run.now).toISOString();
  const others = partitionKeys.filter((k) => k !== 'all');
  const inPartition = partition.key !== 'all'
    ? sql`partition_hint = ${partition.key}`
    : others.length === 0 ? sql`true` : sql`(partition_hint IS NULL OR partition_hint NOT IN (${sql.join(others)}))`;
  const { rows } = await sql<{ id: string; since: Date | null }>`
    SELECT record_id AS id, since FROM open_records
    WHERE stream = ${stream.name} AND account_uid = ${run.account.uid} AND ${inPartition}
      AND (since IS NULL OR since < ${from}::timestamptz)
    ORDER BY since NULLS FIRST, record_id`.execute(run.db);
  const counts = emptyCounts();
  if (rows.length === 0) return counts;
  const spec = loadTarget(run, stream, partition);
  const load = async (loaded: LeanRow[]): Promise<void> => {
    if (loaded.length === 0) return;
    const fees = stream.fees && batchFees(feeSource[stream.fees], loaded);
    run.assertHeld();
    // No checkpoint rides along: the account's fence does, so a run that lost its lock writes nothing.
    const got = await loadBatch(run.db, { ...spec, rows: loaded, ...(fees ? { fees } : {}), alongside: fenceStatement(run.account.uid, run.runId) });
    counts.inserted += got.inserted;
    counts.updated += got.updated;
    counts.unchanged += got.unchanged;
  };
  if (recheck.by === 'id') {
    for (const { id, since } of rows) {
      const params: Record<string, string> = { ...partition.params, [recheck.idParam]: id };
      if (recheck.sendTime && since !== null) Object.assign(params, { startTime: String(since.getTime()), endTime: String(since.getTime() + 1) });
      const page = stream.readPage(await run.call(recheck.endpoint, params));
      counts.requests++;
      await load([...page.records.map((raw) => toRow(run, stream, partition, raw)), ...page.others.map((e) => toRow(run, stream, partition, e))]);
    }
    return counts;
  }
  // No id lookup: the moment each open record happened, read again as a window of 1 ms.
  const moments = [...new Set(rows.flatMap((r) => (r.since === null ? [] : [r.since.getTime()])))];
  for (const at of moments) {
    const pages = new WindowPages(run, stream, partition, { start: at, end: at + 1 }, () => { counts.requests++; });
    const loaded: LeanRow[] = [];
    for (;;) {
      const page = await pages.next();
      if (page === 'full') break;
      loaded.push(...page.rows);
      if (page.fault) {
        await load(loaded);
        throw page.fault;
      }
      if (page.done) break;
    }
    await load(loaded);
  }
  return counts;
}
