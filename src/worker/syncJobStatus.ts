import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { queuePrefix, syncTaskName } from './syncJobSpec.js';

/** One account's sync jobs as the engine and the failure record see them. */
export interface AccountJobs {
  uid: string;
  account: string;
  /** Waiting to run (including retries waiting out their back-off). */
  queued: number;
  /** Locked by a worker right now. */
  running: number;
  /** Retries used up by the engine (a partial run that never completed). */
  failed: number;
  /** The newest error: a retry's last error, an exhausted job's, or a permanent failure newer than the last complete run. */
  lastError: string | null;
  /** 'permanent' when the last error was a configuration or authentication failure (never retried). */
  lastErrorKind: 'retrying' | 'exhausted' | 'permanent' | null;
  nextRunAt: string | null;
}

/**
 * Queued, running and failed sync jobs per account, from the engine's public `jobs` view and
 * `sync_job_failures`. Empty when no worker or enqueue has installed the engine's schema yet.
 *
 * @example
 * for (const a of await syncJobStatus(db)) console.log(a.account, a.queued, a.running, a.failed);
 */
export async function syncJobStatus(db: Kysely<any>): Promise<AccountJobs[]> {
  const installed = await sql<{ ok: boolean }>`SELECT to_regclass('graphile_worker.jobs') IS NOT NULL AS ok`.execute(db);
  const jobs = installed.rows[0]?.ok ? (await sql<{ uid: string; account: string | null; queued: string; running: string; failed: string; last_error: string | null; exhausted_error: string | null; next_run_at: Date | null }>`
    SELECT substr(j.queue_name, length(${queuePrefix}) + 1) AS uid, max(a.name) AS account,
      count(*) FILTER (WHERE j.locked_at IS NULL AND j.attempts < j.max_attempts)::text AS queued,
      count(*) FILTER (WHERE j.locked_at IS NOT NULL)::text AS running,
      count(*) FILTER (WHERE j.locked_at IS NULL AND j.attempts >= j.max_attempts)::text AS failed,
      (array_agg(j.last_error ORDER BY j.updated_at DESC) FILTER (WHERE j.last_error IS NOT NULL AND j.attempts < j.max_attempts))[1] AS last_error,
      (array_agg(j.last_error ORDER BY j.updated_at DESC) FILTER (WHERE j.attempts >= j.max_attempts))[1] AS exhausted_error,
      min(j.run_at) FILTER (WHERE j.locked_at IS NULL AND j.attempts < j.max_attempts) AS next_run_at
    FROM graphile_worker.jobs j LEFT JOIN accounts a ON a.uid = substr(j.queue_name, length(${queuePrefix}) + 1)
    WHERE j.task_identifier = ${syncTaskName} AND starts_with(j.queue_name, ${queuePrefix}) GROUP BY 1`.execute(db)).rows : [];
  // A permanent failure counts until a later run of that account completes.
  const permanent = (await sql<{ uid: string; account: string; message: string; code: string }>`
    SELECT DISTINCT ON (f.account_uid) f.account_uid AS uid, f.account_name AS account, f.message, f.code
    FROM sync_job_failures f
    WHERE NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.status = 'ok' AND r.account_uids @> ARRAY[f.account_uid] AND r.finished_at > f.failed_at)
    ORDER BY f.account_uid, f.failed_at DESC`.execute(db)).rows;
  const out = new Map<string, AccountJobs>();
  for (const j of jobs) {
    const failed = Number(j.failed);
    out.set(j.uid, {
      uid: j.uid, account: j.account ?? j.uid, queued: Number(j.queued), running: Number(j.running), failed,
      lastError: j.last_error ?? j.exhausted_error, lastErrorKind: j.last_error ? 'retrying' : failed > 0 ? 'exhausted' : null,
      nextRunAt: j.next_run_at?.toISOString() ?? null,
    });
  }
  for (const f of permanent) {
    const a = out.get(f.uid) ?? { uid: f.uid, account: f.account, queued: 0, running: 0, failed: 0, lastError: null, lastErrorKind: null, nextRunAt: null };
    a.failed += 1;
    a.lastError = `${f.code}: ${f.message}`;
    a.lastErrorKind = 'permanent';
    out.set(f.uid, a);
  }
  return [...out.values()].sort((a, b) => a.account.localeCompare(b.account));
}
