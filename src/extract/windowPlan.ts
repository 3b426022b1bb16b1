import { DAY_MS } from '../api/endpoints.js';
import type { SyncSettings } from './syncOptions.js';

/** A time window [start, end) in Unix ms, and the cursor to resume it with (none = newest page). */
export interface Window {
  readonly start: number;
  readonly end: number;
  readonly cursor?: string;
}

/** The checkpoint a stream partition left behind (sync_state), in ms. */
export interface Checkpoint {
  readonly watermark?: number;
  readonly windowStart?: number;
  readonly windowEnd?: number;
  readonly cursor?: string;
  /** Current-state streams: the oldest record still current at the last complete read. */
  readonly currentFrom?: number;
  /**
   * Where the partition's history read begins (sync_state.history_from): a first sync's start as
   * asked (--since, else historyDays back), or an earlier --since once its backfill is planned.
   * Undefined for a partition synced before it was recorded and not derivable (migration 0082).
   */
  readonly historyFrom?: number;
}

/** The settings a window plan reads, as the config's `sync` section holds them. */
export type PlanSettings = Pick<SyncSettings, 'since' | 'historyDays' | 'safetyLagMs' | 'lookbackDays' | 'horizonMarginMs'>;

export interface WindowPlanInput {
  readonly spanDays: number | undefined;
  readonly horizonDays: number | undefined;
  readonly mutable: boolean;
  /** Current-state streams: also re-read from here (the oldest record still current). */
  readonly rescanFrom?: number | undefined;
  /**
   * A mutable stream's look-back start when the engine chose it (lookbackStart.ts: only open
   * records can change); otherwise watermark - lookbackDays.
   */
  readonly lookbackFrom?: number | undefined;
  readonly checkpoint: Checkpoint | undefined;
  /** min(server time, local time), ms. */
  readonly now: number;
  readonly settings: PlanSettings;
  /**
   * A current-state stream (it lists only what is still current): a backfill is part of its one
   * walk, which finds the oldest record still current, rather than windows of its own.
   */
  readonly current?: boolean;
}

/**
 * A later sync whose --since is before where the partition's history read began: the span in
 * between, as windows (oldest first, each within the span), read before the rest; what of it the
 * horizon hides; and the partition's new start.
 */
export interface Backfill {
  readonly windows: readonly Window[];
  readonly gap: { readonly from: number; readonly to: number } | undefined;
  readonly historyFrom: number;
  /** Where the history read before began: what the backfill adds ends here. */
  readonly to: number;
  /** A current-state stream's: `windows` are the first of the plan's own, not read apart (they may reach past `to`). */
  readonly inPlan: boolean;
}

export interface WindowPlan {
  readonly windows: readonly Window[];
  /** History the horizon hides and that was never read: [from, to). */
  readonly gap: { readonly from: number; readonly to: number } | undefined;
  /** The time the last window ends at: the watermark after a complete run. */
  readonly end: number;
  /**
   * A first sync without --since on an endpoint without a horizon starts sync.historyDays back:
   * the history before this time is not read (historyGap.ts lists it, with --since as the fix:
   * a later run with an earlier --since reads it, `backfill`).
   */
  readonly unreadBefore?: number;
  /** A first sync: where its read begins as asked (sync_state.history_from; before any horizon clamp). */
  readonly historyFrom?: number;
  /** A later sync with an earlier --since: the history before the partition's start, read first. */
  readonly backfill?: Backfill;
}

/**
 * Plans the windows of one stream partition: oldest to newest, back to back with no gap, each
 * within the endpoint's span, ending at now - safety lag. A half-walked window is resumed first
 * with its cursor. Mutable streams start a look-back before the watermark (current-state streams
 * at the oldest record still current, if earlier); a horizon clamps the start and reports what
 * it hides. A first sync says where it starts (`historyFrom`); a later one whose --since is before
 * the partition's recorded start plans the span in between (`backfill`), read before the rest.
 *
 * @example
 * planWindows({ spanDays: 30, horizonDays: undefined, mutable: false, checkpoint: undefined, now,
 *   settings: { since: undefined, historyDays: 730, safetyLagMs: 120_000, lookbackDays: 0, horizonMarginMs: 300_000 } }).windows.length // 25
 */
export function planWindows(input: WindowPlanInput): WindowPlan {
  const s = input.settings;
  const end = input.now - s.safetyLagMs;
  const horizonStart = horizonStartOf(input.now, input.horizonDays, s.horizonMarginMs);
  const cp = input.checkpoint;
  const windows: Window[] = [];
  let from: number;
  let gap: WindowPlan['gap'];
  let unreadBefore: number | undefined;
  let historyFrom: number | undefined;

  if (cp?.windowStart !== undefined && cp.windowEnd !== undefined) {
    // Resume the half-walked window exactly, then carry on from its end.
    const start = Math.max(cp.windowStart, horizonStart);
    if (start < cp.windowEnd) windows.push(cp.cursor === undefined ? { start, end: cp.windowEnd } : { start, end: cp.windowEnd, cursor: cp.cursor });
    from = cp.windowEnd;
  } else {
    // A first sync starts at --since, else historyDays back.
    const firstStart = s.since ?? input.now - s.historyDays * DAY_MS;
    let start: number;
    if (cp?.watermark === undefined) {
      start = firstStart;
      historyFrom = firstStart;
      if (s.since === undefined && horizonStart === -Infinity) unreadBefore = firstStart;
    }
    else start = Math.min(input.mutable ? input.lookbackFrom ?? cp.watermark - s.lookbackDays * DAY_MS : cp.watermark, input.rescanFrom ?? Infinity);
    if (start < horizonStart) {
      // Only history never read counts as a gap; a look-back reaching past the horizon does not.
      const unread = cp?.watermark ?? start;
      if (unread < horizonStart) gap = { from: unread, to: horizonStart };
      start = horizonStart;
    }
    from = start;
  }

  const span = input.spanDays === undefined ? Infinity : input.spanDays * DAY_MS;
  windows.push(...spanWindows(from, end, span));
  let backfill = backfillOf(input, horizonStart, span);
  if (backfill && input.current) {
    // Up to where the walk starts, so the one walk covers all from --since on.
    const back = spanWindows(backfill.windows[0]?.start ?? Infinity, windows[0]?.start ?? end, span);
    windows.unshift(...back);
    backfill = { ...backfill, windows: back, inPlan: true };
  }
  return {
    windows, gap, end: Math.max(end, windows.at(-1)?.end ?? end),
    ...(unreadBefore === undefined ? {} : { unreadBefore }),
    ...(historyFrom === undefined ? {} : { historyFrom }),
    ...(backfill === undefined ? {} : { backfill }),
  };
}

// [from, end) in back-to-back windows no wider than `span`.
function spanWindows(from: number, end: number, span: number): Window[] {
  const out: Window[] = [];
  while (from < end) {
    const to = Math.min(end, from + span);
    out.push({ start: from, end: to });
    from = to;
  }
  return out;
}

// A later run (the partition has been read: a watermark, or a window under way) whose --since is
// before the partition's start reads the span between first. Where the start was not recorded (a
// database synced before migration 0082 that it could not derive), the span reaches the
// watermark: the history up to there is read again, which costs requests but cannot miss a
// record (a record read twice is stored once, "unchanged").
function backfillOf(input: WindowPlanInput, horizonStart: number, span: number): Backfill | undefined {
  const cp = input.checkpoint;
  const since = input.settings.since;
  if (since === undefined || cp === undefined) return undefined;
  const to = cp.historyFrom ?? cp.watermark ?? cp.windowStart;
  if ((cp.watermark === undefined && cp.windowStart === undefined) || to === undefined || since >= to) return undefined;
  const start = Math.max(since, horizonStart);
  return {
    windows: spanWindows(start, to, span),
    gap: since < horizonStart ? { from: since, to: Math.min(horizonStart, to) } : undefined,
    historyFrom: since,
    to,
    inPlan: false,
  };
}

/**
 * The oldest time an endpoint with a history horizon still serves, kept `marginMs` inside it so
 * clock drift never trips 40704; -Infinity without a horizon.
 *
 * @example
 * horizonStartOf(now, 90, 300_000) // now - 90 days + 5 minutes
 */
export function horizonStartOf(now: number, horizonDays: number | undefined, marginMs: number): number {
  return horizonDays === undefined ? -Infinity : now - horizonDays * DAY_MS + marginMs;
}
