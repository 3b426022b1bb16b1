import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/api/endpoints.js';
import { planWindows } from '../../src/extract/windowPlan.js';
import type { WindowPlanInput } from '../../src/extract/windowPlan.js';

const now = Date.UTC(2026, 5, 1, 12);
const base: WindowPlanInput = {
  spanDays: 30, horizonDays: undefined, mutable: false, checkpoint: undefined, now,
  settings: { safetyLagMs: 120_000, since: undefined, historyDays: 365, lookbackDays: 7, horizonMarginMs: 300_000 },
};

function expectContiguous(windows: readonly { start: number; end: number }[]): void {
  for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBe(windows[i - 1]!.end);
}

describe('planWindows', () => {
  it('covers a first sync oldest to newest in back-to-back windows no wider than the span, ending at now minus the safety lag', () => {
    const plan = planWindows(base);
    expect(plan.windows[0]!.start).toBe(now - 365 * DAY_MS);
    expect(plan.windows.at(-1)!.end).toBe(now - 120_000);
    expectContiguous(plan.windows);
    for (const w of plan.windows) expect(w.end - w.start).toBeLessThanOrEqual(30 * DAY_MS);
    expect(plan.windows).toHaveLength(Math.ceil((365 * DAY_MS - 120_000) / (30 * DAY_MS)));
    expect(plan.gap).toBeUndefined();
  });

  it('uses one window when the endpoint has no span limit, and --since over the default', () => {
    const plan = planWindows({ ...base, spanDays: undefined, settings: { ...base.settings, since: now - 10 * DAY_MS } });
    expect(plan.windows).toEqual([{ start: now - 10 * DAY_MS, end: now - 120_000 }]);
  });

  it('resumes a half-walked window with its cursor first, then carries on from its end', () => {
    const cp = { watermark: now - 40 * DAY_MS, windowStart: now - 40 * DAY_MS, windowEnd: now - 10 * DAY_MS, cursor: '12345' };
    const plan = planWindows({ ...base, checkpoint: cp });
    expect(plan.windows[0]).toEqual({ start: cp.windowStart, end: cp.windowEnd, cursor: '12345' });
    expect(plan.windows[1]!.start).toBe(cp.windowEnd);
    expectContiguous(plan.windows);
  });

  it('starts an immutable stream at its watermark and a mutable one a look-back before it', () => {
    const cp = { watermark: now - DAY_MS };
    expect(planWindows({ ...base, checkpoint: cp }).windows[0]!.start).toBe(now - DAY_MS);
    expect(planWindows({ ...base, mutable: true, checkpoint: cp }).windows[0]!.start).toBe(now - 8 * DAY_MS);
  });

  it('plans nothing when the watermark already reaches now minus the lag', () => {
    expect(planWindows({ ...base, checkpoint: { watermark: now - 120_000 } }).windows).toEqual([]);
  });

  it('clamps a start beyond the horizon and reports the unread history as a gap', () => {
    const plan = planWindows({ ...base, spanDays: 90, horizonDays: 90 });
    const horizonStart = now - 90 * DAY_MS + 300_000;
    expect(plan.windows[0]!.start).toBe(horizonStart);
    expect(plan.gap).toEqual({ from: now - 365 * DAY_MS, to: horizonStart });
  });

  it('does not call a look-back that reaches past the horizon a gap', () => {
    const plan = planWindows({ ...base, spanDays: 90, horizonDays: 90, mutable: true, settings: { ...base.settings, lookbackDays: 200 }, checkpoint: { watermark: now - DAY_MS } });
    expect(plan.gap).toBeUndefined();
    expect(plan.windows[0]!.start).toBe(now - 90 * DAY_MS + 300_000);
  });

  it('re-reads a current-state stream from the oldest record still current when that is before the look-back', () => {
    const cp = { watermark: now - 120_000 };
    expect(planWindows({ ...base, mutable: true, rescanFrom: now - 100 * DAY_MS, checkpoint: cp }).windows[0]!.start).toBe(now - 100 * DAY_MS);
    expect(planWindows({ ...base, mutable: true, rescanFrom: now - DAY_MS, checkpoint: cp }).windows[0]!.start).toBe(now - 7 * DAY_MS - 120_000);
  });
});

describe('planWindows and --since', () => {
  it('starts a later run at the watermark, --since or not (an earlier --since adds a backfill: below)', () => {
    const plan = planWindows({ ...base, settings: { ...base.settings, since: now - 300 * DAY_MS }, checkpoint: { watermark: now - DAY_MS } });
    expect(plan.windows[0]!.start).toBe(now - DAY_MS);
  });
});

describe('planWindows: a later run with an earlier --since (a backfill)', () => {
  const since = now - 300 * DAY_MS;
  const at = (settings: Partial<WindowPlanInput['settings']>, over: Partial<WindowPlanInput> = {}) =>
    planWindows({ ...base, ...over, settings: { ...base.settings, ...settings } });

  it('records where a first sync starts, as asked', () => {
    expect(at({ since }).historyFrom).toBe(since);
    expect(at({}).historyFrom).toBe(now - 365 * DAY_MS);
    // Before the horizon's clamp: the start asked, the rest is a gap.
    expect(at({ since }, { horizonDays: 90 }).historyFrom).toBe(since);
    expect(at({ since }, { checkpoint: { watermark: now - DAY_MS, historyFrom: since } }).historyFrom).toBeUndefined();
  });

  it('reads the span between --since and the start first, in windows of the span, then goes on from the watermark', () => {
    const plan = at({ since }, { checkpoint: { watermark: now - DAY_MS, historyFrom: now - 100 * DAY_MS } });
    expect(plan.backfill!.windows[0]!.start).toBe(since);
    expect(plan.backfill!.windows.at(-1)!.end).toBe(now - 100 * DAY_MS);
    expectContiguous(plan.backfill!.windows);
    expect(plan.backfill!.windows).toHaveLength(7);
    expect(plan.backfill!.historyFrom).toBe(since);
    expect(plan.backfill!.inPlan).toBe(false);
    expect(plan.windows[0]!.start).toBe(now - DAY_MS);
  });

  it('plans none when --since is not before the start, or is not given', () => {
    expect(at({ since }, { checkpoint: { watermark: now - DAY_MS, historyFrom: since } }).backfill).toBeUndefined();
    expect(at({ since: since + DAY_MS }, { checkpoint: { watermark: now - DAY_MS, historyFrom: since } }).backfill).toBeUndefined();
    expect(at({}, { checkpoint: { watermark: now - DAY_MS, historyFrom: since } }).backfill).toBeUndefined();
  });

  it('reads up to the watermark where the start is not known (a partition synced before it was recorded)', () => {
    const plan = at({ since }, { checkpoint: { watermark: now - 10 * DAY_MS } });
    expect(plan.backfill!.windows[0]!.start).toBe(since);
    expect(plan.backfill!.windows.at(-1)!.end).toBe(now - 10 * DAY_MS);
  });

  it('reads only what the horizon still serves, and calls the rest a gap', () => {
    const plan = at({ since }, { horizonDays: 90, spanDays: 90, checkpoint: { watermark: now - DAY_MS, historyFrom: now - 60 * DAY_MS } });
    const horizonStart = now - 90 * DAY_MS + 300_000;
    expect(plan.backfill!.windows).toEqual([{ start: horizonStart, end: now - 60 * DAY_MS }]);
    expect(plan.backfill!.gap).toEqual({ from: since, to: horizonStart });
    // Wholly past the horizon: nothing to read, only the gap, and the start still moves.
    const gone = at({ since }, { horizonDays: 90, checkpoint: { watermark: now - DAY_MS, historyFrom: now - 200 * DAY_MS } });
    expect(gone.backfill!.windows).toEqual([]);
    expect(gone.backfill!.gap).toEqual({ from: since, to: now - 200 * DAY_MS });
    expect(gone.backfill!.historyFrom).toBe(since);
  });

  it("makes a current-state stream's backfill the first windows of its one walk", () => {
    const plan = at({ since }, { mutable: true, current: true, rescanFrom: now - 20 * DAY_MS, checkpoint: { watermark: now - DAY_MS, historyFrom: now - 100 * DAY_MS } });
    expect(plan.backfill!.inPlan).toBe(true);
    expect(plan.windows[0]!.start).toBe(since);
    expectContiguous(plan.windows);
    expect(plan.backfill!.windows.at(-1)!.end).toBe(now - 20 * DAY_MS);
    expect(plan.windows.slice(0, plan.backfill!.windows.length)).toEqual(plan.backfill!.windows);
  });
});
