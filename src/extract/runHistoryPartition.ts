import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { loadTarget } from './pageRecords.js';
import { BatchLoader } from '../load/batchLoader.js';
import type { BatchTarget } from '../load/batchLoader.js';
import { feeSource } from '../load/feeRows.js';
import { horizonStartOf, planWindows } from './windowPlan.js';
import { lookbackStart } from './lookbackStart.js';
import type { Window } from './windowPlan.js';
import { createBackfillWindows, createParallelWindows, currentRescanFrom, finishParallelWindows, markState, readCheckpoint, recordCurrentFrom, recordHistoryFrom, readParallelWindows } from './syncState.js';
import type { ParallelWindow, StateKey } from './syncState.js';
import { watermarkCheckpoints, windowCheckpoints } from './checkpointPolicy.js';
import type { CheckpointPolicy } from './checkpointPolicy.js';
import { WindowPages } from './windowPages.js';
import { inLanes } from './lanes.js';
import { DAY_MS } from '../api/endpoints.js';
import { defaultStartReason, recordGap, unreadHistoryFrom } from './historyGap.js';
import { emptyCounts } from './streamCounts.js';
import type { StreamCounts } from './streamCounts.js';

/** A partition plan covering at least this much time is walked as parallel windows. */
const parallelFromMs = 30 * DAY_MS;

/**
 * Walks one partition of one history stream: windows oldest to newest, pages newest to oldest
 * inside each window by the stream's cursor (`WindowPages`), the cursor reset per window.
 * Consecutive pages commit in batches together with the checkpoint of the last page
 * (`BatchLoader`), so a killed run resumes after the last committed batch; the next page is
 * fetched while a batch loads. Throws when the exchange fails for good, after committing the
 * pages already read.
 *
 * One walk, two checkpoint policies (`checkpointPolicy.ts`), N lanes (`inLanes`): a plan is walked
 * one window at a time with the partition's watermark as checkpoint, or, when long (a first sync,
 * a long catch-up), `sync.parallelWindows` (default 4) windows at once, each with its own
 * checkpoint in sync_windows (a plan of fewer windows is cut up once its first page shows that
 * there is more than one page to read). Why: one partition pages one request after another, so
 * its request latency, not the machine or the rate budget, would otherwise bound it (with 150 ms
 * answers, one window at a time took 1.58x the rate-limit minimum, four 1.13x; BENCHMARKS.md).
 * The partition's watermark moves only when every window is read. Windows a killed run left are
 * finished first.
 *
 * @example
 * const { counts } = await runHistoryPartition(run, deposits, single[0]);
 */
export async function runHistoryPartition(run: AccountRun, stream: HistoryStream, partition: Partition): Promise<{ counts: StreamCounts; firstWindowStart: number | undefined }> {
  const walk = partitionWalk(run, stream, partition);
  const { state, where, counts } = walk;
  const left = await readParallelWindows(run.db, state);
  let started = false;
  if (left.length > 0) {
    run.emit({ type: 'partition-start', ...where, windows: left.filter((w) => !w.done).length });
    started = true;
    await walkRecorded(walk, left);
  }
  const checkpoint = await readCheckpoint(run.db, state);
  const plan = planWindows({
    spanDays: run.settings.windowDays[stream.name] ?? stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable,
    rescanFrom: await currentRescanFrom(run.db, stream, run.account.uid, partition, checkpoint), checkpoint, now: run.now, settings: run.settings,
    lookbackFrom: await lookbackStart(run.db, stream, run.account.uid, partition, checkpoint?.watermark, run.settings),
    current: stream.current !== undefined,
  });
  const horizonGap = `${stream.endpoint} serves only the last ${stream.horizonDays} days`;
  if (plan.gap) {
    await recordGap(run.db, state, plan.gap, horizonGap, run.runId);
    run.emit({ type: 'gap', ...where, from: new Date(plan.gap.from).toISOString(), to: new Date(plan.gap.to).toISOString() });
  }
  if (plan.unreadBefore !== undefined) {
    await recordGap(run.db, state, { from: unreadHistoryFrom, to: plan.unreadBefore }, defaultStartReason(run.settings.historyDays), run.runId);
    run.emit({ type: 'gap', ...where, from: new Date(unreadHistoryFrom).toISOString(), to: new Date(plan.unreadBefore).toISOString() });
  }
  if (plan.historyFrom !== undefined) await recordHistoryFrom(run.db, state, plan.historyFrom, run.runId);
  if (plan.backfill) {
    // An earlier --since than this partition's start: the history before it is read first, as
    // recorded windows (a killed run finishes them before anything else). A current-state
    // stream's are the first windows of its walk; its start moves once the walk is complete.
    const { windows: back, gap, historyFrom, inPlan } = plan.backfill;
    if (gap) {
      await recordGap(run.db, state, gap, horizonGap, run.runId);
      run.emit({ type: 'gap', ...where, from: new Date(gap.from).toISOString(), to: new Date(gap.to).toISOString() });
    }
    const list = back.map((w) => ({ start: w.start, end: w.end }));
    const added = list.length === 0 ? undefined : { type: 'backfill' as const, ...where, from: new Date(list[0]!.start).toISOString(), to: new Date(plan.backfill.to).toISOString() };
    if (inPlan) {
      if (added) run.emit(added);
    } else {
      await createBackfillWindows(run.db, state, list, historyFrom, run.runId);
      if (added) {
        run.emit(started ? { type: 'windows-added', ...where, windows: list.length } : { type: 'partition-start', ...where, windows: list.length });
        started = true;
        run.emit(added);
        await walkRecorded(walk, list.map((w) => ({ ...w, done: false })));
      }
    }
  }
  // Where this run's reading reaches now from without a break: open records older than it are
  // re-checked by id (recheckOpen.ts). Windows a killed run left join it only when they reach it.
  let firstWindowStart = plan.windows[0]?.start;
  if (left.length > 0 && (firstWindowStart === undefined || Math.max(...left.map((w) => w.end)) >= firstWindowStart)) {
    firstWindowStart = Math.min(left[0]!.start, firstWindowStart ?? Infinity);
  }
  const windows = plan.windows;
  const first = windows[0];
  const last = windows.at(-1);
  // One partition-start per partition; windows known only later are added to it.
  run.emit(started ? { type: 'windows-added', ...where, windows: windows.length } : { type: 'partition-start', ...where, windows: windows.length });
  const lanes = run.settings.parallelWindows;
  const long = lanes > 1 && first !== undefined && last !== undefined && first.cursor === undefined && !stream.current && last.end - first.start >= parallelFromMs;
  if (long && windows.length >= lanes) {
    // Enough windows to share out as planned: walking them in parallel costs no extra request.
    await walkInParallel(walk, windows);
    return { counts, firstWindowStart };
  }
  // One lane, the partition's watermark as checkpoint. A long window whose first page comes back
  // full holds more than one page: it is cut into parallel windows then (with the plan's later
  // windows), at the price of that one request. An empty or small partition never pays for
  // parallel windows it does not need.
  const policy = watermarkCheckpoints(state, run.runId, checkpoint?.watermark);
  // Current-state streams: the oldest record this read finds still current.
  let oldest: number | undefined;
  const { stoppedAt } = await inLanes(windows, 1, async (window, i) => {
    const probe = long && window.cursor === undefined && window.end - window.start >= parallelFromMs;
    const walked = await walkWindow(walk, window, policy, { ordinal: i, total: windows.length, probe });
    if (walked === 'full') return 'stop';
    if (walked.oldest !== undefined) oldest = Math.min(oldest ?? Infinity, walked.oldest);
    run.emit({ type: 'window-done', ...where, window: i + 1, windows: windows.length });
  });
  if (stoppedAt !== undefined) {
    const parts = [...cut(windows[stoppedAt]!.start, windows[stoppedAt]!.end, lanes), ...windows.slice(stoppedAt + 1)];
    run.emit({ type: 'windows-added', ...where, windows: stoppedAt + parts.length - windows.length });
    await walkInParallel(walk, parts);
    return { counts, firstWindowStart };
  }
  // The read is complete: the next one starts from the oldest record still current (a failed
  // read throws before this and leaves the older, safe, value).
  if (stream.current && windows.length > 0) await recordCurrentFrom(run.db, state, oldest ?? plan.end, run.runId);
  if (plan.backfill?.inPlan) await createBackfillWindows(run.db, state, [], plan.backfill.historyFrom, run.runId);
  return { counts, firstWindowStart };
}

/** What every window walk of one partition shares. */
interface PartitionWalk {
  readonly run: AccountRun;
  readonly stream: HistoryStream;
  readonly partition: Partition;
  readonly state: StateKey;
  readonly where: { account: string; stream: string; partition: string };
  readonly counts: StreamCounts;
  /** Where the partition's batches go. */
  readonly target: BatchTarget;
}

function partitionWalk(run: AccountRun, stream: HistoryStream, partition: Partition): PartitionWalk {
  const where = { account: run.account.name, stream: stream.name, partition: partition.key };
  const counts = emptyCounts();
  return {
    run, stream, partition, where, counts,
    state: { account: run.account.uid, stream: stream.name, partition: partition.key },
    target: { ...loadTarget(run, stream, partition), touchSeen: stream.current !== undefined, feeSource: stream.fees && feeSource[stream.fees] },
  };
}

// Records the windows in sync_windows, then walks them in parallel.
async function walkInParallel(walk: PartitionWalk, windows: readonly Window[]): Promise<void> {
  const { run, state } = walk;
  const list = windows.map((w) => ({ start: w.start, end: w.end }));
  // A kill from here on shows in `status` as interrupted, even before the first watermark.
  await markState(run.db, state, 'running', run.runId, null);
  await createParallelWindows(run.db, state, list, run.runId);
  await walkRecorded(walk, list.map((w) => ({ ...w, done: false })));
}

// Walks the recorded windows not yet done, `sync.parallelWindows` at once, oldest first; then
// moves the watermark to their end and drops them. On a failure the windows under way finish
// (committing what they read), no new one starts, and the first error is thrown: the next run
// resumes.
async function walkRecorded(walk: PartitionWalk, all: readonly ParallelWindow[]): Promise<void> {
  const { run, stream, state, where } = walk;
  const horizonStart = horizonStartOf(run.now, stream.horizonDays, run.settings.horizonMarginMs);
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
  const keys = new Map(pending.map((p) => [p.window, p.key]));
  const policy = windowCheckpoints(state, run.runId, (w) => keys.get(w)!);
  let done = all.length - pending.length;
  await inLanes(pending, run.settings.parallelWindows, async ({ window, ordinal }) => {
    // Page events name the window by its place in the partition's plan (oldest = 1).
    await walkWindow(walk, window, policy, { ordinal, total: all.length, probe: false });
    run.emit({ type: 'window-done', ...where, window: ++done, windows: all.length });
  });
  await finishParallelWindows(run.db, state, Math.max(...all.map((w) => w.end)), run.runId);
}

// [start, end) cut into n back-to-back windows of equal length.
function cut(start: number, end: number, n: number): Window[] {
  const at = (i: number) => (i === n ? end : start + Math.floor(((end - start) * i) / n));
  return Array.from({ length: n }, (_, i) => ({ start: at(i), end: at(i + 1) })).filter((w) => w.end > w.start);
}

// One window: its pages (WindowPages) into batches (BatchLoader), each committed with the
// policy's checkpoint. 'full': `probe` was set and the first page came back full; nothing of the
// window was loaded.
async function walkWindow(
  walk: PartitionWalk, window: Window, policy: CheckpointPolicy, at: { ordinal: number; total: number; probe: boolean },
): Promise<'full' | { oldest: number | undefined }> {
  const { run, stream, partition, counts } = walk;
  const pages = new WindowPages(run, stream, partition, window, () => { counts.requests++; });
  const loader = new BatchLoader(run.db, walk.target, (got, n) => {
    counts.pages += n;
    counts.inserted += got.inserted;
    counts.updated += got.updated;
    counts.unchanged += got.unchanged;
    // Records as loaded: a record two pages both held (the overlap, a window edge) counts once.
    run.emit({ type: 'page', ...walk.where, records: got.inserted + got.updated + got.unchanged, inserted: got.inserted, updated: got.updated, window: at.ordinal + 1, windows: at.total });
  });
  let oldest: number | undefined;
  try {
    for (;;) {
      // Stop before the next request once the lock is gone (the write would be refused anyway).
      run.assertHeld();
      const page = await pages.next(at.probe);
      if (page === 'full') return 'full';
      if (page.oldest !== undefined) oldest = Math.min(oldest ?? Infinity, page.oldest);
      await loader.add(page.rows, policy.at(window, page.next, page.done), page.done, stream.limit);
      // A faulted page: its records go with the checkpoint it was asked with (abandon, below).
      if (page.fault) throw page.fault;
      if (page.done) break;
    }
  } catch (err) {
    // A fetch failed for good: commit the pages already read (with their checkpoint), so the
    // next run resumes after them; then report the failure.
    await loader.abandon();
    throw err;
  }
  await loader.finish();
  policy.windowDone(window);
  counts.windows++;
  return { oldest };
}
