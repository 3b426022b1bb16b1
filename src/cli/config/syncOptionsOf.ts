import type { Kysely } from 'kysely';
import type { SyncOptions } from '../../extract/syncOptions.js';
import type { SyncEventSink } from '../../extract/syncEvent.js';
import type { SyncConfig } from './syncConfig.js';

/**
 * The engine's options from the frozen config plus the run's database and progress sink.
 *
 * @example
 * await runSync(syncOptionsOf(config, db, progress.sink));
 */
export function syncOptionsOf(config: SyncConfig, db: Kysely<any>, emit: SyncEventSink): SyncOptions {
  return {
    db, emit, baseUrl: config.baseUrl, accounts: config.accounts, streams: config.sync.streams, since: config.sync.since,
    defaultHistoryDays: config.sync.historyDays, safetyLagMs: config.sync.safetyLagMs, lookbackDays: config.sync.lookbackDays,
    horizonMarginMs: config.sync.horizonMarginMs, windowDays: config.sync.windowDays, concurrency: config.sync.concurrency,
    parallelWindows: config.sync.parallelWindows,
    symbols: config.sync.symbols, client: config.client,
  };
}
