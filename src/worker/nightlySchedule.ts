import { parseCronItems } from 'graphile-worker';
import type { ParsedCronItem } from 'graphile-worker';
import { enqueueAllTaskName } from './syncJobSpec.js';

/**
 * The engine's cron item for the config's `schedule` (five cron fields, UTC, e.g. `15 3 * * *`):
 * at each matching minute, one worker (the engine guarantees one, across all machines) runs the
 * task that enqueues every account. A missed run is backfilled for up to an hour (a worker
 * restarted at 03:40 still enqueues the 03:15 run). Throws the engine's parse error for a bad
 * pattern; the config loader turns it into a config error.
 *
 * @example
 * const items = nightlySchedule('15 3 * * *');
 */
export function nightlySchedule(pattern: string): ParsedCronItem[] {
  const fields = pattern.trim().split(/\s+/);
  // The engine also accepts a crontab line's options after the pattern; a schedule is only the pattern.
  if (fields.length !== 5) throw new Error(`a cron pattern has five fields (minute hour day-of-month month day-of-week), got ${fields.length}`);
  return parseCronItems([{
    task: enqueueAllTaskName, match: fields.join(' '), identifier: 'tradeledger_nightly_sync',
    options: { backfillPeriod: 3600_000, maxAttempts: 3 },
  }]);
}
