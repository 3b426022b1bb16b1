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
 * Opens a sync_runs row. Runs left 'running' by a killed process are marked 'interrupted' first,
 * so status never shows a dead run as alive.
 *
 * @example
 * const runId = await openRun(db, { streams: ['deposits'] });
 */
export async function openRun(db: Kysely<any>, options: Record<string, unknown>): Promise<string> {
  await sql`UPDATE sync_runs SET status = 'interrupted' WHERE status = 'running'`.execute(db);
  const { rows } = await sql<{ id: string }>`INSERT INTO sync_runs (options) VALUES (${JSON.stringify(options)}::jsonb) RETURNING id::text AS id`.execute(db);
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
 * Records the accounts a run syncs, so status and reports can name them.
 *
 * @example
 * await recordAccount(db, { uid, name: 'main', kind: 'main', parentUid: null });
 */
export async function recordAccount(db: Kysely<any>, a: { uid: string; name: string; kind: 'main' | 'sub' | 'demo'; parentUid: string | null }): Promise<void> {
  await sql`INSERT INTO accounts (uid, name, kind, parent_uid) VALUES (${a.uid}, ${a.name}, ${a.kind}, ${a.parentUid})
    ON CONFLICT (uid) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, parent_uid = EXCLUDED.parent_uid`.execute(db);
}
