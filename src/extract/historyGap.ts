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
