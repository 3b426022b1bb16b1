import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { loadTarget, pageFees, toRow } from './pageRecords.js';
import type { Loaded } from './pageRecords.js';
import { loadPage } from './loadPage.js';
import type { PageLoad } from './loadPage.js';
import { planWindows } from './windowPlan.js';
import type { Window } from './windowPlan.js';
import { readCheckpoint } from './syncState.js';
import type { CheckpointWrite, StateKey } from './syncState.js';
import { recordGap } from './historyGap.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/**
 * Walks one partition of one history stream: windows oldest to newest, pages newest to oldest
 * inside each window by the stream's cursor, the cursor reset per window. Consecutive pages
 * commit in batches (up to ~1,000 rows or 250 ms) together with the checkpoint of the last page,
 * so a killed run resumes after the last committed batch; the next page is fetched while a batch
 * loads. Throws when the exchange fails for good, after committing the pages already read.
 *
 * @example
 * const { counts } = await runHistoryPartition(run, deposits, single[0]);
 */
export async function runHistoryPartition(run: AccountRun, stream: HistoryStream, partition: Partition): Promise<{ counts: StreamCounts; firstWindowStart: number | undefined }> {
  const state: StateKey = { account: run.account.uid, stream: stream.name, partition: partition.key };
  const checkpoint = await readCheckpoint(run.db, state);
  const t = run.timing;
  const rescanFrom = stream.current && checkpoint ? await stream.current.oldestCurrent(run.db, run.account.uid, partition) : undefined;
  const plan = planWindows({
    spanDays: run.windowDays[stream.name] ?? stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable,
    rescanFrom, checkpoint, now: t.now, safetyLagMs: t.safetyLagMs, since: t.since,
    defaultStart: t.defaultStart, lookbackMs: t.lookbackMs, horizonMarginMs: t.horizonMarginMs,
  });
  const where = { account: run.account.name, stream: stream.name, partition: partition.key };
  if (plan.gap) {
    await recordGap(run.db, state, plan.gap, `${stream.endpoint} serves only the last ${stream.horizonDays} days`, run.runId);
    run.emit({ type: 'gap', ...where, from: new Date(plan.gap.from).toISOString(), to: new Date(plan.gap.to).toISOString() });
  }
  run.emit({ type: 'partition-start', ...where, windows: plan.windows.length });
  const spec = loadTarget(run, stream, partition);
  const counts = emptyCounts();
  let watermark = checkpoint?.watermark;
  for (const [i, window] of plan.windows.entries()) {
    await walkWindow(run, stream, partition, spec, state, window, watermark, counts, i, plan.windows.length);
    watermark = Math.max(watermark ?? -Infinity, window.end);
    counts.windows++;
    run.emit({ type: 'window-done', ...where, window: i + 1, windows: plan.windows.length });
  }
  return { counts, firstWindowStart: plan.windows[0]?.start };
}

// Consecutive pages of one partition commit together, up to this many rows or this long after
// the first of them arrived: one larger statement costs PostgreSQL far less per row than many
// 100-row ones. Still atomic: the checkpoint written is the last page's, in the same commit.
const batchRows = 1000;
const batchMs = 250;

async function walkWindow(
  run: AccountRun, stream: HistoryStream, partition: Partition, spec: Pick<PageLoad, 'target' | 'constants'>, state: StateKey,
  window: Window, watermark: number | undefined, counts: StreamCounts, index: number, total: number,
): Promise<void> {
  const fetchPage = (at: string | undefined) => {
    const params: Record<string, string> = {
      ...partition.params, startTime: String(window.start), endTime: String(window.end), limit: String(stream.limit),
    };
    if (at !== undefined) params.idLessThan = at;
    return run.call(stream.endpoint, params).then((data) => stream.readPage(data));
  };
  let batch: Loaded[] = [];
  let batchPages = 0;
  let batchStart = 0;
  let loading: Promise<void> = Promise.resolve();
  let queued: Promise<void> = Promise.resolve();
  // Loads run one at a time, in page order, while the next pages are fetched. A load's failure
  // surfaces at the next flush or at the end; the no-op catch only keeps it from being reported
  // as unhandled in between.
  const flush = (checkpoint: CheckpointWrite) => {
    const rows = batch;
    const pages = batchPages;
    batch = [];
    batchPages = 0;
    const previous = loading;
    loading = previous.then(async () => {
      const fees = pageFees(stream, rows);
      const got = await loadPage(run.db, {
        ...spec, rows: rows.map((r) => r.row), ...(fees ? { fees } : {}), touchSeen: stream.current !== undefined, state, checkpoint,
      });
      counts.pages += pages;
      counts.inserted += got.inserted;
      counts.updated += got.updated;
      counts.unchanged += got.unchanged;
      run.emit({ type: 'page', account: run.account.name, stream: stream.name, partition: partition.key, records: rows.length, inserted: got.inserted, updated: got.updated, window: index + 1, windows: total });
    });
    loading.catch(() => {});
  };
  let cursor = window.cursor;
  let pending = fetchPage(cursor);
  let lastCheckpoint: CheckpointWrite | undefined;
  try {
    for (;;) {
      const page = await pending;
      counts.requests++;
      const next = page.next;
      // A short page, a missing cursor or one that does not move down ends the window.
      const done = page.records.length < stream.limit || next === undefined || (cursor !== undefined && BigInt(next) >= BigInt(cursor));
      // Fetch the next page while this one is mapped and loaded: the two overlap instead of
      // taking turns. If the load fails the prefetch is abandoned; the no-op catch keeps its
      // failure from surfacing as an unhandled rejection (the load's error is the one that counts).
      if (!done) {
        pending = fetchPage(next);
        pending.catch(() => {});
      }
      if (batchPages === 0) batchStart = Date.now();
      for (const raw of page.records) batch.push(toRow(run, stream, partition, raw));
      batchPages++;
      lastCheckpoint = {
        watermark: done ? Math.max(watermark ?? -Infinity, window.end) : watermark,
        window: done ? undefined : { start: window.start, end: window.end, cursor: next },
        status: 'running', runId: run.runId,
      };
      if (done || batch.length + stream.limit > batchRows || Date.now() - batchStart >= batchMs) {
        // At most one load runs and one waits behind it, so fetching goes on while PostgreSQL
        // works and memory stays bounded (three batches at most).
        await queued;
        queued = loading;
        flush(lastCheckpoint);
      }
      if (done) break;
      cursor = next;
    }
  } catch (err) {
    // A fetch failed for good: commit the pages already read (with their checkpoint), so the
    // next run resumes after them; then report the failure.
    if (batchPages > 0 && lastCheckpoint) flush(lastCheckpoint);
    await loading.catch(() => {});
    throw err;
  }
  await loading;
}
