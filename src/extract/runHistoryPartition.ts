import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { loadTarget, pageFees, toRow } from './pageRecords.js';
import type { Loaded } from './pageRecords.js';
import { loadPage } from '../load/loadBatch.js';
import type { PageLoad } from '../load/loadBatch.js';
import { horizonStartOf, planWindows } from './windowPlan.js';
import type { Window } from './windowPlan.js';
import { checkpointStatement, createParallelWindows, currentRescanFrom, finishParallelWindows, markState, readCheckpoint, recordCurrentFrom, readParallelWindows, windowProgressStatement } from './syncState.js';
import type { ParallelWindow, StateKey } from './syncState.js';
import { DAY_MS } from '../api/endpoints.js';
import { parseExchangeTime } from '../normalize/parseExchangeTime.js';
import { recordGap } from './historyGap.js';
import { checkPage } from './pageCheck.js';
import { pagingFault } from './pagingFault.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/** A partition plan covering at least this much time is walked as parallel windows. */
const parallelFromMs = 30 * DAY_MS;

/**
 * Walks one partition of one history stream: windows oldest to newest, pages newest to oldest
 * inside each window by the stream's cursor, the cursor reset per window. Consecutive pages
 * commit in batches (up to ~1,000 rows or 250 ms) together with the checkpoint of the last page,
 * so a killed run resumes after the last committed batch; the next page is fetched while a batch
 * loads. Throws when the exchange fails for good, after committing the pages already read.
 *
 * A long plan (a first sync, a long catch-up) is walked `sync.parallelWindows` (default 4) windows
 * at once, each with its own checkpoint in sync_windows (a plan of fewer windows is cut up once its
 * first page shows that there is more than one page to read): one partition pages one request
 * after another, so its request latency, not the machine or the rate budget, would otherwise bound
 * it (with 150 ms answers, one window at a time took 1.58x the rate-limit minimum, four 1.13x;
 * BENCHMARKS.md). The partition's watermark moves only when every window is read. Windows a killed
 * run left are finished first.
 *
 * @example
 * const { counts } = await runHistoryPartition(run, deposits, single[0]);
 */
export async function runHistoryPartition(run: AccountRun, stream: HistoryStream, partition: Partition): Promise<{ counts: StreamCounts; firstWindowStart: number | undefined }> {
  const state: StateKey = { account: run.account.uid, stream: stream.name, partition: partition.key };
  const t = run.timing;
  const where = { account: run.account.name, stream: stream.name, partition: partition.key };
  const spec = loadTarget(run, stream, partition);
  const counts = emptyCounts();
  const left = await readParallelWindows(run.db, state);
  let firstWindowStart: number | undefined;
  if (left.length > 0) {
    run.emit({ type: 'partition-start', ...where, windows: left.filter((w) => !w.done).length });
    firstWindowStart = left[0]!.start;
    await walkParallel(run, stream, partition, spec, state, left, counts);
  }
  const checkpoint = await readCheckpoint(run.db, state);
  const rescanFrom = await currentRescanFrom(run.db, stream, run.account.uid, partition, checkpoint);
  const plan = planWindows({
    spanDays: run.windowDays[stream.name] ?? stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable,
    rescanFrom, checkpoint, now: t.now, safetyLagMs: t.safetyLagMs, since: t.since,
    defaultStart: t.defaultStart, lookbackMs: t.lookbackMs, horizonMarginMs: t.horizonMarginMs,
  });
  if (plan.gap) {
    await recordGap(run.db, state, plan.gap, `${stream.endpoint} serves only the last ${stream.horizonDays} days`, run.runId);
    run.emit({ type: 'gap', ...where, from: new Date(plan.gap.from).toISOString(), to: new Date(plan.gap.to).toISOString() });
  }
  firstWindowStart ??= plan.windows[0]?.start;
  const first = plan.windows[0];
  const last = plan.windows.at(-1);
  // One partition-start per partition; windows known only later are added to it.
  const announce = (windows: number) => run.emit(left.length === 0 ? { type: 'partition-start', ...where, windows } : { type: 'windows-added', ...where, windows });
  const lanes = run.parallelWindows;
  const long = lanes > 1 && first !== undefined && last !== undefined && first.cursor === undefined && !stream.current && last.end - first.start >= parallelFromMs;
  if (long && plan.windows.length >= lanes) {
    // Enough windows to share out as planned: walking them in parallel costs no extra request.
    announce(plan.windows.length);
    await goParallel(run, stream, partition, spec, state, plan.windows, counts);
    return { counts, firstWindowStart };
  }
  announce(plan.windows.length);
  let watermark = checkpoint?.watermark;
  // Current-state streams: the oldest record this read finds still current.
  const oldest = stream.current ? { at: undefined as number | undefined } : undefined;
  for (const [i, window] of plan.windows.entries()) {
    const wm = watermark;
    const commitPoint = (next: string | undefined, done: boolean) => checkpointStatement(state, {
      watermark: done ? Math.max(wm ?? -Infinity, window.end) : wm,
      window: done ? undefined : { start: window.start, end: window.end, cursor: next }, status: 'running', runId: run.runId,
    });
    // A long window whose first page comes back full holds more than one page: it is cut into
    // parallel windows then (with the plan's later windows), at the price of that one request.
    // An empty or small partition never pays for parallel windows it does not need.
    const split = long && window.cursor === undefined && window.end - window.start >= parallelFromMs;
    const walked = await walkWindow(run, stream, partition, spec, window, commitPoint, counts, i, plan.windows.length, split, oldest);
    if (walked === 'split') {
      const parts = [...cut(window.start, window.end, lanes), ...plan.windows.slice(i + 1)];
      run.emit({ type: 'windows-added', ...where, windows: i + parts.length - plan.windows.length });
      await goParallel(run, stream, partition, spec, state, parts, counts);
      return { counts, firstWindowStart };
    }
    watermark = Math.max(watermark ?? -Infinity, window.end);
    counts.windows++;
    run.emit({ type: 'window-done', ...where, window: i + 1, windows: plan.windows.length });
  }
  // The read is complete: the next one starts from the oldest record still current (a failed
  // read throws before this and leaves the older, safe, value).
  if (oldest && plan.windows.length > 0) await recordCurrentFrom(run.db, state, oldest.at ?? plan.end);
  return { counts, firstWindowStart };
}

// Records the windows in sync_windows, then walks them in parallel.
async function goParallel(
  run: AccountRun, stream: HistoryStream, partition: Partition, spec: LoadSpec, state: StateKey, windows: readonly Window[], counts: StreamCounts,
): Promise<void> {
  const list = windows.map((w) => ({ start: w.start, end: w.end }));
  // A kill from here on shows in `status` as interrupted, even before the first watermark.
  await markState(run.db, state, 'running', run.runId, null);
  await createParallelWindows(run.db, state, list, run.runId);
  await walkParallel(run, stream, partition, spec, state, list.map((w) => ({ ...w, done: false })), counts);
}

// [start, end) cut into n back-to-back windows of equal length.
function cut(start: number, end: number, n: number): Window[] {
  const at = (i: number) => (i === n ? end : start + Math.floor(((end - start) * i) / n));
  return Array.from({ length: n }, (_, i) => ({ start: at(i), end: at(i + 1) })).filter((w) => w.end > w.start);
}

// Walks the windows not yet done, up to `run.parallelWindows` at once, oldest first; then moves the
// watermark to their end and drops them. On a failure the windows under way finish (committing
// what they read), no new one starts, and the first error is thrown: the next run resumes.
async function walkParallel(
  run: AccountRun, stream: HistoryStream, partition: Partition, spec: LoadSpec, state: StateKey, all: readonly ParallelWindow[], counts: StreamCounts,
): Promise<void> {
  const where = { account: run.account.name, stream: stream.name, partition: partition.key };
  const horizonStart = horizonStartOf(run.timing.now, stream.horizonDays, run.timing.horizonMarginMs);
  // Each window still owed, with its start as recorded (its key in sync_windows).
  const pending: { window: Window; key: number; ordinal: number }[] = [];
  for (const [ordinal, w] of all.entries()) {
    if (w.done) continue;
    // A window a run left days ago may now reach past the horizon: the part the exchange no longer
    // serves is recorded as a gap, as the planner does.
    if (w.start < horizonStart) {
      const to = Math.min(horizonStart, w.end);
      await recordGap(run.db, state, { from: w.start, to }, `${stream.endpoint} serves only the last ${stream.horizonDays} days`, run.runId);
      run.emit({ type: 'gap', ...where, from: new Date(w.start).toISOString(), to: new Date(to).toISOString() });
    }
    const start = Math.max(w.start, horizonStart);
    if (start < w.end) pending.push({ window: w.cursor === undefined ? { start, end: w.end } : { start, end: w.end, cursor: w.cursor }, key: w.start, ordinal });
  }
  const total = all.length;
  let next = 0;
  let done = all.length - pending.length;
  const errors: unknown[] = [];
  const lane = async () => {
    while (errors.length === 0 && next < pending.length) {
      const { window, key, ordinal } = pending[next++]!;
      const commitPoint = (cursor: string | undefined, finished: boolean) => windowProgressStatement(state, key, cursor, finished, run.runId);
      try {
        // Page events name the window by its place in the partition's plan (oldest = 1).
        await walkWindow(run, stream, partition, spec, window, commitPoint, counts, ordinal, total);
      } catch (e) {
        errors.push(e);
        return;
      }
      counts.windows++;
      run.emit({ type: 'window-done', ...where, window: ++done, windows: total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.parallelWindows, pending.length) }, lane));
  if (errors.length > 0) throw errors[0];
  await finishParallelWindows(run.db, state, Math.max(...all.map((w) => w.end)), run.runId);
}

type LoadSpec = Pick<PageLoad, 'target' | 'constants'>;
type CommitPoint = (cursor: string | undefined, done: boolean) => { text: string; params: unknown[] };

// Consecutive pages of one partition commit together, up to this many rows or this long after
// the first of them arrived: one larger statement costs PostgreSQL far less per row than many
// 100-row ones. Still atomic: the checkpoint written is the last page's, in the same commit.
const batchRows = 1000;
const batchMs = 250;

async function walkWindow(
  run: AccountRun, stream: HistoryStream, partition: Partition, spec: LoadSpec,
  window: Window, commitPoint: CommitPoint, counts: StreamCounts, index: number, total: number, split = false,
  oldest?: { at: number | undefined },
): Promise<'done' | 'split'> {
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
  const flush = (checkpoint: { text: string; params: unknown[] }) => {
    const rows = batch;
    const pages = batchPages;
    batch = [];
    batchPages = 0;
    const previous = loading;
    loading = previous.then(async () => {
      const fees = pageFees(stream, rows);
      const got = await loadPage(run.db, {
        ...spec, rows: rows.map((r) => r.row), ...(fees ? { fees } : {}), touchSeen: stream.current !== undefined, alongside: checkpoint,
      });
      counts.pages += pages;
      counts.inserted += got.inserted;
      counts.updated += got.updated;
      counts.unchanged += got.unchanged;
      // Records as loaded: a record two pages both held (the overlap, a window edge) counts once.
      run.emit({ type: 'page', account: run.account.name, stream: stream.name, partition: partition.key, records: got.inserted + got.updated + got.unchanged, inserted: got.inserted, updated: got.updated, window: index + 1, windows: total });
    });
    loading.catch(() => {});
  };
  let cursor = window.cursor;
  let pending = fetchPage(cursor);
  let lastCheckpoint: { text: string; params: unknown[] } | undefined;
  let pageNo = 0;
  // The last record of the page before, which the next page must begin with (see checkPage). It
  // is held back until that page confirms it, so a record under a false id is never stored.
  let overlap: string | undefined;
  let held: Loaded | undefined;
  try {
    for (;;) {
      const page = await pending;
      counts.requests++;
      pageNo++;
      // The page is checked against what was asked before anything of it counts: a cursor that
      // does not move or ids out of order stop the partition (the pages before it commit with
      // their checkpoint), and a record outside the window never sets the cursor.
      const verdict = checkPage(page, { start: window.start, end: window.end, cursor, limit: stream.limit, idField: stream.idField, timeField: stream.timeField, overlap });
      if (verdict.fault !== undefined) throw pagingFault(stream.name, stream.endpoint, window, pageNo, verdict.fault);
      const next = verdict.next;
      const done = verdict.done;
      // The first page is full: the caller walks this window in parallel parts instead, from
      // scratch (nothing of it is loaded here, so no part of it can be missed or counted twice).
      if (split && !done && batchPages === 0 && cursor === undefined) return 'split';
      // Fetch the next page while this one is mapped and loaded: the two overlap instead of
      // taking turns. If the load fails the prefetch is abandoned; the no-op catch keeps its
      // failure from surfacing as an unhandled rejection (the load's error is the one that counts).
      if (!done) {
        pending = fetchPage(next);
        pending.catch(() => {});
      }
      if (batchPages === 0) batchStart = Date.now();
      // The held record goes with this page (which repeats it, or lost it as a current order
      // that left in between); one key in one batch is loaded once.
      if (held) batch.push(held);
      held = undefined;
      for (const raw of page.records) {
        const outside = verdict.flagged.get(raw);
        const row = toRow(run, stream, partition, raw, outside === undefined ? [] : [outside]);
        if (raw === verdict.overlapRecord) held = row;
        else batch.push(row);
        if (oldest && outside === undefined) {
          const t = parseExchangeTime(raw[stream.timeField]);
          if (t !== null && t.ok) oldest.at = Math.min(oldest.at ?? Infinity, Number(t.ms));
        }
      }
      for (const entry of page.others) batch.push(toRow(run, stream, partition, entry));
      batchPages++;
      lastCheckpoint = commitPoint(next, done);
      if (done || batch.length + stream.limit > batchRows || Date.now() - batchStart >= batchMs) {
        // At most one load runs and one waits behind it, so fetching goes on while PostgreSQL
        // works and memory stays bounded (three batches at most).
        await queued;
        queued = loading;
        flush(lastCheckpoint);
      }
      if (done) break;
      cursor = next;
      overlap = verdict.overlap;
    }
  } catch (err) {
    // A fetch failed for good: commit the pages already read (with their checkpoint), so the
    // next run resumes after them; then report the failure.
    if (batchPages > 0 && lastCheckpoint) flush(lastCheckpoint);
    await loading.catch(() => {});
    throw err;
  }
  await loading;
  return 'done';
}
