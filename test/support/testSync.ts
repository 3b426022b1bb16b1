import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { DAY_MS } from '../../src/api/endpoints.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import type { SyncOptions, SyncSettings } from '../../src/extract/syncOptions.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';
import type { RunningSandbox } from './sandbox.js';

/**
 * Engine options for a test (`over.sync` is merged into the settings): every sandbox account, history from before the sandbox's first
 * record, no safety lag (the sandbox world is complete up to its start), fast retries.
 */
export function testSyncOptions(
  sandbox: RunningSandbox, db: Kysely<any>, events: SyncEvent[] = [], over: Partial<Omit<SyncOptions, 'sync'>> & { sync?: Partial<SyncSettings> } = {},
): SyncOptions {
  const { sync, ...rest } = over;
  return {
    db, baseUrl: sandbox.baseUrl, accounts: sandboxAccounts(sandbox.accounts),
    sync: {
      since: sandbox.world.now() - 731 * DAY_MS, historyDays: 730, safetyLagMs: 0, lookbackDays: 7,
      horizonMarginMs: 300_000, windowDays: {}, concurrency: 8, parallelWindows: 4, symbols: undefined, streams: undefined,
      ...sync,
    },
    client: { safetyFactor: 0.9, maxRetries: 8, retryBaseMs: 5, timeoutMs: 10_000, rateLimit: false, maxClockSkewMs: 60_000 },
    emit: (e) => events.push(e),
    ...rest,
  };
}

/** Account UIDs a test sandbox syncs. */
export function sandboxUids(sandbox: RunningSandbox): string[] {
  return sandboxAccounts(sandbox.accounts).map((a) => a.uid!);
}

/**
 * The progress display's arithmetic: every window a sync announced (at a partition's start, or
 * added when a plan is cut up or a backfill planned) is reported done exactly once.
 */
export function expectWindowsAddUp(events: readonly SyncEvent[]): void {
  const announced = new Map<string, number>();
  const done = new Map<string, number>();
  for (const e of events) {
    if (e.type !== 'partition-start' && e.type !== 'windows-added' && e.type !== 'window-done') continue;
    const k = `${e.account}/${e.stream}/${e.partition}`;
    if (e.type === 'window-done') done.set(k, (done.get(k) ?? 0) + 1);
    else announced.set(k, (announced.get(k) ?? 0) + e.windows);
  }
  expect(announced.size).toBeGreaterThan(0);
  for (const [k, n] of announced) expect(done.get(k) ?? 0, k).toBe(n);
}
