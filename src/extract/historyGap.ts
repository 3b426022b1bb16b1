import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { StateKey } from './syncState.js';

/**
 * Records history an endpoint's horizon hides (stream, account, dates). Each run's gap replaces
 * the earlier ones of that partition that start at the same time; a later run's gap grows as the
 * horizon moves on. A gap that ends where one of the partition begins (a backfill's, before the
 * first sync's) extends that one back, so the partition has one span, not two that touch.
 *
 * @example
 * await recordGap(db, key, { from, to }, 'futures history orders: the endpoint serves 90 days', runId);
 */
export async function recordGap(db: Kysely<any>, key: StateKey, gap: { from: number; to: number }, reason: string, runId: string): Promise<void> {
  const from = new Date(gap.from).toISOString();
  const to = new Date(gap.to).toISOString();
  const here = sql`account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}`;
  await sql`
    WITH extended AS (
      UPDATE history_gaps SET gap_from = ${from}::timestamptz, reason = ${reason}, run_id = ${runId}, recorded_at = now()
      WHERE ${here} AND gap_from = ${to}::timestamptz
        AND NOT EXISTS (SELECT 1 FROM history_gaps WHERE ${here} AND gap_from = ${from}::timestamptz)
      RETURNING 1
    )
    INSERT INTO history_gaps (account_uid, stream, partition, gap_from, gap_to, reason, run_id)
    SELECT ${key.account}, ${key.stream}, ${key.partition}, ${from}::timestamptz, ${to}::timestamptz, ${reason}, ${runId}
    WHERE NOT EXISTS (SELECT 1 FROM extended)
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
  return `the first sync started ${historyDays} days back (sync.historyDays, without --since): older history was not read; holdings bought before it have no cost. Fix: tradeledger sync --since YYYY-MM-DD (the account's opening date) reads it`;
}
