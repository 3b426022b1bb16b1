import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/api/endpoints.js';
import { planWindows } from '../../src/extract/windowPlan.js';
import type { WindowPlanInput } from '../../src/extract/windowPlan.js';

// The default start of a first sync (sync.historyDays back, without --since) hides the older
// history: the plan says so (unreadBefore), so the sync records it as a history gap whose fix is
// --since (historyGap.ts). Issue 20 item 7.
const now = Date.UTC(2026, 5, 1, 12);
const base: WindowPlanInput = {
  spanDays: 90, horizonDays: undefined, mutable: false, checkpoint: undefined, now,
  settings: { safetyLagMs: 120_000, since: undefined, historyDays: 730, lookbackDays: 7, horizonMarginMs: 300_000 },
};

describe('the default start of a first sync', () => {
  it('is reported as unread history before it', () => {
    expect(planWindows(base).unreadBefore).toBe(now - 730 * DAY_MS);
  });
  it('is not reported when --since chose the start, on a later run, or where a horizon already limits the endpoint', () => {
    expect(planWindows({ ...base, settings: { ...base.settings, since: now - 900 * DAY_MS } }).unreadBefore).toBeUndefined();
    expect(planWindows({ ...base, checkpoint: { watermark: now - DAY_MS } }).unreadBefore).toBeUndefined();
    expect(planWindows({ ...base, horizonDays: 90 }).unreadBefore).toBeUndefined();
  });
});
