import type { Kysely } from 'kysely';
import { poolOf } from '../db/createDb.js';
import { TradeledgerError } from '../errors.js';

/** The per-account locks of one run, on one connection held for the whole run. */
export interface SyncLock {
  /** The server process of the connection holding the locks (see sync_runs.backend_pid). */
  readonly backendPid: number;
  /**
   * Takes the accounts' fencing tokens for run `runId` on the lock's own connection (so a lock
   * already lost cannot take them): sync_fences.generation + 1 per account, recorded in the run's
   * sync_runs.fence_tokens. From then on every checkpoint and page write of the run passes
   * tradeledger_fence (sql/migrations/0068) in its own statement. Returns the tokens by UID.
   */
  claim(runId: string): Promise<Record<string, number>>;
  /** Throws SYNC_LOCK_LOST once the lock's connection has closed or failed (a restart, a terminated backend). */
  assertHeld(): void;
  release(): Promise<void>;
}

/** SQLSTATE raised by tradeledger_fence when a run writes an account whose lock it lost. */
export const fenceSqlState = 'TLF01';

/**
 * The error of a run that lost an account's lock: retryable (the next attempt takes the lock
 * again and resumes from the last page committed under it).
 */
export function lockLostError(detail: string): TradeledgerError {
  return new TradeledgerError('SYNC_LOCK_LOST', `the sync lost its account lock and stopped before its next write: ${detail}`, {
    kind: 'database', retryable: true,
    hint: 'nothing to do: the run stopped at its last committed page, and the next sync (or the job\'s retry) resumes from there',
  });
}

/** Whether an error is a fenced-off write (SQLSTATE TLF01) or a lost lock noticed by the process. */
export function isLockLost(e: unknown): boolean {
  return (e instanceof TradeledgerError && e.code === 'SYNC_LOCK_LOST') || (e as { code?: unknown } | null)?.code === fenceSqlState;
}

/**
 * A statement that fails (TLF01) unless run `runId` still holds `account`'s lock and fencing
 * token, and otherwise changes nothing: for writes that carry no checkpoint (open-record
 * rechecks), as the `alongside` CTE of their one statement.
 *
 * @example
 * await loadBatch(db, { ...spec, rows, alongside: fenceStatement(uid, runId) });
 */
export function fenceStatement(account: string, runId: string): { text: string; params: unknown[] } {
  return { text: 'UPDATE sync_fences SET generation = generation WHERE account_uid = $1 AND NOT tradeledger_fence($1, $2::bigint)', params: [account, runId] };
}

/**
 * Holds one session-level advisory lock per account UID for the whole run, so two syncs never
 * write one account's checkpoints at once, while syncs of different accounts (a manual sync of
 * account a, workers on b and c) run side by side. All or nothing: if another process holds any
 * of the accounts, none is kept and the run is refused (retryable: that sync will finish). A
 * killed process's locks die with its connection. A lock can be lost while its run goes on (a
 * PostgreSQL restart ends the session; the run's other connections are re-made): `claim` takes
 * fencing tokens so that such a run's writes fail in the database, and `assertHeld` lets the
 * run stop before it even asks the exchange for its next page.
 *
 * @example
 * const lock = await holdSyncLock(db, ['2000001117']); try { ... } finally { await lock.release(); }
 */
export async function holdSyncLock(db: Kysely<any>, accountUids: readonly string[], names: ReadonlyMap<string, string> = new Map()): Promise<SyncLock> {
  const client = await poolOf(db).connect();
  // The connection's end or failure is the lock's loss: PostgreSQL released it with the session.
  let lost: string | undefined;
  const onError = (e: Error) => { lost ??= `its connection failed (${e.message})`; };
  const onEnd = () => { lost ??= 'its connection closed'; };
  client.on('error', onError);
  client.on('end', onEnd);
  const held: string[] = [];
  const unlockAll = async () => {
    for (const uid of held) await client.query("SELECT pg_advisory_unlock(hashtext('tradeledger.sync'), hashtext($1))", [uid]).catch(() => undefined);
  };
  try {
    const { rows: [me] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    for (const uid of [...new Set(accountUids)].sort()) {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('tradeledger.sync'), hashtext($1)) AS ok", [uid]);
      if (rows[0]?.ok !== true) {
        const name = names.get(uid) ?? uid;
        throw new TradeledgerError('SYNC_RUNNING', `another tradeledger sync (a manual sync or a worker) is syncing account "${name}" on this database`, {
          kind: 'config', retryable: true, details: { account: name },
          hint: 'wait for it to finish (see `tradeledger status`), or leave that account out with --account; a killed sync releases its lock at once',
        });
      }
      held.push(uid);
    }
    const uids = [...new Set(accountUids)].sort();
    return {
      backendPid: me!.pid,
      claim: async (runId) => {
        const { rows } = await client.query<{ account_uid: string; generation: string }>(`
          WITH claimed AS (
            INSERT INTO sync_fences AS f (account_uid, generation, run_id, holder_pid, taken_at)
            SELECT u, 1, $2::bigint, pg_backend_pid(), now() FROM unnest($1::text[]) AS u
            ON CONFLICT (account_uid) DO UPDATE SET generation = f.generation + 1, run_id = EXCLUDED.run_id,
              holder_pid = EXCLUDED.holder_pid, taken_at = now()
            RETURNING account_uid, generation),
          recorded AS (
            UPDATE sync_runs SET fence_tokens = (SELECT jsonb_object_agg(account_uid, generation) FROM claimed) WHERE id = $2::bigint)
          SELECT account_uid, generation::text FROM claimed`, [uids, runId]);
        return Object.fromEntries(rows.map((r) => [r.account_uid, Number(r.generation)]));
      },
      assertHeld: () => {
        if (lost !== undefined) throw lockLostError(lost);
      },
      release: async () => {
        await unlockAll();
        client.off('error', onError);
        client.off('end', onEnd);
        // A connection that failed is dropped, not handed back to the pool.
        client.release(lost !== undefined);
      },
    };
  } catch (e) {
    await unlockAll();
    client.off('error', onError);
    client.off('end', onEnd);
    client.release(lost !== undefined);
    throw e;
  }
}

/**
 * Whether the connection that holds a run's account locks is still open, that is whether the
 * run is really going on (a sync_runs row saying 'running' may be left by a process that died
 * with its database, or by a version before runs recorded their lock holder). The same rule
 * openRun applies before it marks such rows 'interrupted'. Reads pg_stat_activity only.
 *
 * @example
 * if (run.status === 'running' && !(await runHolderAlive(db, run.id))) run.status = 'interrupted';
 */
export async function runHolderAlive(db: Kysely<any>, runId: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ alive: boolean }>(`SELECT EXISTS (
    SELECT 1 FROM sync_runs r JOIN pg_stat_activity a ON a.pid = r.backend_pid WHERE r.id = $1::bigint) AS alive`, [runId]);
  return rows[0]?.alive === true;
}
