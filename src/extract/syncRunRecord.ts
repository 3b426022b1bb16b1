import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { StreamCounts } from './streamCounts.js';
import { isConnectionProblem } from '../db/connectionProblem.js';

export interface RunError {
  account: string;
  stream: string;
  partition: string;
  code: string;
  message: string;
}

export interface RunGap {
  account: string;
  stream: string;
  partition: string;
  from: string;
  to: string;
}

/**
 * Opens a sync_runs row for the accounts a run has locked. Runs left 'running' by a killed
 * process (their lock-holding backend is gone) are marked 'interrupted' first, so status never
 * shows a dead run as alive, and never calls a live worker's run dead.
 *
 * @example
 * const runId = await openRun(db, { streams: ['deposits'] }, { accountUids: ['2000001117'], backendPid: lock.backendPid });
 */
export async function openRun(db: Kysely<any>, options: Record<string, unknown>, holder: { accountUids: readonly string[]; backendPid: number }): Promise<string> {
  await sql`UPDATE sync_runs SET status = 'interrupted' WHERE status = 'running'
    AND (backend_pid IS NULL OR backend_pid NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL))`.execute(db);
  const { rows } = await sql<{ id: string }>`INSERT INTO sync_runs (options, account_uids, backend_pid)
    VALUES (${JSON.stringify(options)}::jsonb, ${sql.val([...holder.accountUids])}::text[], ${holder.backendPid}) RETURNING id::text AS id`.execute(db);
  return rows[0]!.id;
}

/**
 * Closes a sync_runs row with its final status, per-stream counts, errors and gaps.
 *
 * @example
 * await closeRun(db, runId, 'partial', counts, errors, gaps);
 */
export async function closeRun(db: Kysely<any>, runId: string, status: 'ok' | 'partial' | 'failed', counts: Record<string, StreamCounts>, errors: RunError[], gaps: RunGap[]): Promise<void> {
  // A PostgreSQL restart may be what ended the run: keep trying for a while (about 15 s) so the
  // run is recorded as failed rather than left 'running'.
  for (let attempt = 0; ; attempt++) {
    try {
      await sql`UPDATE sync_runs SET finished_at = now(), status = ${status}, counts = ${JSON.stringify(counts)}::jsonb,
        errors = ${JSON.stringify(errors)}::jsonb, gaps = ${JSON.stringify(gaps)}::jsonb WHERE id = ${runId}::bigint`.execute(db);
      return;
    } catch (e) {
      if (attempt >= 6 || !isConnectionProblem(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** Math.min(attempt, 4)));
    }
  }
}

/**
 * Records the accounts a run syncs, so status and reports can name them. A sub-account synced
 * on its own (one worker job) does not know its parent's UID, so a known parent is kept.
 *
 * @example
 * await recordAccount(db, { uid, name: 'main', kind: 'main', parentUid: null });
 */
export async function recordAccount(db: Kysely<any>, a: { uid: string; name: string; kind: 'main' | 'sub' | 'demo'; parentUid: string | null }): Promise<void> {
  await sql`INSERT INTO accounts (uid, name, kind, parent_uid) VALUES (${a.uid}, ${a.name}, ${a.kind}, ${a.parentUid})
    ON CONFLICT (uid) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, parent_uid = COALESCE(EXCLUDED.parent_uid, accounts.parent_uid)`.execute(db);
}
