import type { TaskSpec } from 'graphile-worker';

/** The engine's task that syncs one account. */
export const syncTaskName = 'tradeledger_sync';
/** The engine's task the nightly schedule runs: it adds one sync job per configured account. */
export const enqueueAllTaskName = 'tradeledger_enqueue_all';

/**
 * How often the engine tries one sync job before it is failed for good. Between attempts it
 * waits exp(attempt) seconds (graphile-worker's back-off: 3 s, 7 s, 20 s, 55 s, 2.5 min, 7 min,
 * 18 min), about half an hour in all, so a partial run meets a passing exchange fault again
 * well inside the night.
 */
export const syncMaxAttempts = 8;

/** Every account queue's name starts with this; the account UID follows. */
export const queuePrefix = 'tradeledger:account:';

/** What a sync job carries: which account (by config name and UID) and which streams. Never a secret. */
export interface SyncJobPayload {
  account: string;
  uid: string;
  /** Undefined: every stream. */
  streams?: string[];
}

/**
 * The engine options of one account's sync job: its queue is named after the account UID, so the
 * engine runs that account's jobs one at a time across every worker; its job key makes a second
 * enqueue of a still-pending job replace it rather than add one (one key per stream selection, so
 * a full sync and a deposits-only sync of one account both stay queued, one after the other).
 *
 * @example
 * syncJobSpec({ account: 'client-001', uid: '2000003351' }); // { queueName: 'tradeledger:account:2000003351', jobKey: 'tradeledger:sync:2000003351', ... }
 */
export function syncJobSpec(p: SyncJobPayload): TaskSpec {
  const streams = p.streams === undefined ? '' : `:${[...p.streams].sort().join(',')}`;
  return {
    queueName: `${queuePrefix}${p.uid}`,
    jobKey: `tradeledger:sync:${p.uid}${streams}`,
    // Re-enqueueing keeps the pending job's place in line instead of pushing it back.
    jobKeyMode: 'preserve_run_at',
    maxAttempts: syncMaxAttempts,
  };
}
