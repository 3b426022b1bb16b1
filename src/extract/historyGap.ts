import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { StateKey } from './syncState.js';

/**
 * Records history an endpoint's horizon hides (stream, account, dates). Each run's gap replaces
 * the earlier ones of that partition that start at the same time; a later run's gap grows as the
 * horizon moves on.
 *
 * @example
 * await recordGap(db, key, { from, to }, 'futures history orders: the endpoint serves 90 days', runId);
 */
export async function recordGap(db: Kysely<any>, key: StateKey, gap: { from: number; to: number }, reason: string, runId: string): Promise<void> {
  await sql`
    INSERT INTO history_gaps (account_uid, stream, partition, gap_from, gap_to, reason, run_id)
    VALUES (${key.account}, ${key.stream}, ${key.partition}, ${new Date(gap.from).toISOString()}::timestamptz,
            ${new Date(gap.to).toISOString()}::timestamptz, ${reason}, ${runId})
    ON CONFLICT (account_uid, stream, partition, gap_from) DO UPDATE SET
      gap_to = GREATEST(history_gaps.gap_to, EXCLUDED.gap_to), reason = EXCLUDED.reason, run_id = EXCLUDED.run_id, recorded_at = now()`.execute(db);
}

/** Where a gap before the default start of a first sync begins: the Unix epoch, i.e. "all earlier history". */
export const unreadHistoryFrom = 0;

/**
 * Why the history before a first sync's default start is missing, and the fix.
 *
 * @example
 * defaultStartReason(730) // 'the first sync started 730 days back (sync.historyDays) ...'
 */
export function defaultStartReason(historyDays: number): string {
  return `the first sync started ${historyDays} days back (sync.historyDays, the default): older history was not read; holdings bought before it have no cost. Fix: tradeledger sync --since YYYY-MM-DD (the account's opening date) reads it`;
}
