import type { Statement } from '../load/batchLoader.js';
import type { Window } from './windowPlan.js';
import { checkpointStatement, windowProgressStatement } from './syncState.js';
import type { StateKey } from './syncState.js';

/**
 * How a partition walk records its progress, in the statement that loads each batch: for a
 * window, the checkpoint that says its pages up to `cursor` (or all, when `done`) are stored.
 */
export interface CheckpointPolicy {
  /** The checkpoint committed with the batch whose last page leaves the window at `cursor` (or finished it). */
  readonly at: (window: Window, cursor: string | undefined, done: boolean) => Statement;
  /** Called once a window is read through. */
  readonly windowDone: (window: Window) => void;
}

/**
 * Windows walked one after another: the partition's row in sync_state holds the window under
 * way with its cursor, and the watermark moves (only forward) to the end of each finished window.
 *
 * @example
 * const policy = watermarkCheckpoints(state, runId, checkpoint?.watermark);
 */
export function watermarkCheckpoints(state: StateKey, runId: string, watermark: number | undefined): CheckpointPolicy {
  let wm = watermark;
  return {
    at: (window, cursor, done) => checkpointStatement(state, {
      watermark: done ? Math.max(wm ?? -Infinity, window.end) : wm,
      window: done ? undefined : { start: window.start, end: window.end, cursor }, status: 'running', runId,
    }),
    windowDone: (window) => { wm = Math.max(wm ?? -Infinity, window.end); },
  };
}

/**
 * Windows walked in parallel: each has its row in sync_windows (keyed by its start as recorded),
 * holding its cursor and `done`; the watermark moves only when all are read (finishParallelWindows).
 *
 * @example
 * const policy = windowCheckpoints(state, runId, (w) => recordedStart.get(w)!);
 */
export function windowCheckpoints(state: StateKey, runId: string, keyOf: (window: Window) => number): CheckpointPolicy {
  return {
    at: (window, cursor, done) => windowProgressStatement(state, keyOf(window), cursor, done, runId),
    windowDone: () => undefined,
  };
}
