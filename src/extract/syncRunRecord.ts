import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../db/databaseTypes.js';
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
export async function openRun(db: Kysely<Database>, options: Record<string, unknown>, holder: { accountUids: readonly string[]; backendPid: number }): Promise<string> {
  await sql`UPDATE sync_runs SET status = 'interrupted' WHERE status = 'running'
    AND (backend_pid IS NULL OR backend_pid NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL))`.execute(db);
  const run = await db.insertInto('sync_runs')
    .values({ options: JSON.stringify(options), account_uids: [...holder.accountUids], backend_pid: holder.backendPid })
    .returning('id').executeTakeFirstOrThrow();
  return run.id;
}

/**
 * Closes a sync_runs row with its final status, per-stream counts, errors and gaps.
 *
 * @example
 * await closeRun(db, runId, 'partial', counts, errors, gaps);
 */
export async function closeRun(db: Kysely<Database>, runId: string, status: 'ok' | 'partial' | 'failed', counts: Record<string, StreamCounts>, errors: RunError[], gaps: RunGap[]): Promise<void> {
  // A PostgreSQL restart may be what ended the run: keep trying for a while (about 15 s) so the
  // run is recorded as failed rather than left 'running'.
  for (let attempt = 0; ; attempt++) {
    try {
      await db.updateTable('sync_runs')
        .set({ finished_at: sql<Date>`now()`, status, counts: JSON.stringify(counts), errors: JSON.stringify(errors), gaps: JSON.stringify(gaps) })
        .where('id', '=', runId).execute();
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
export async function recordAccount(db: Kysely<Database>, a: { uid: string; name: string; kind: 'main' | 'sub' | 'demo'; parentUid: string | null }): Promise<void> {
  await db.insertInto('accounts').values({ uid: a.uid, name: a.name, kind: a.kind, parent_uid: a.parentUid })
    .onConflict((oc) => oc.column('uid').doUpdateSet((eb) => ({
      name: eb.ref('excluded.name'), kind: eb.ref('excluded.kind'), parent_uid: eb.fn.coalesce('excluded.parent_uid', 'accounts.parent_uid'),
    })))
    .execute();
}
