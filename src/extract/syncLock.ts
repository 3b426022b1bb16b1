import type { Kysely } from 'kysely';
import { poolOf } from '../db/createDb.js';
import { TradeledgerError } from '../errors.js';

/** The per-account locks of one run, on one connection held for the whole run. */
export interface SyncLock {
  /** The server process of the connection holding the locks (see sync_runs.backend_pid). */
  readonly backendPid: number;
  release(): Promise<void>;
}

/**
 * Holds one session-level advisory lock per account UID for the whole run, so two syncs never
 * write one account's checkpoints at once, while syncs of different accounts (a manual sync of
 * account a, workers on b and c) run side by side. All or nothing: if another process holds any
 * of the accounts, none is kept and the run is refused (retryable: that sync will finish). A
 * killed process's locks die with its connection.
 *
 * @example
 * const lock = await holdSyncLock(db, ['2000001117']); try { ... } finally { await lock.release(); }
 */
export async function holdSyncLock(db: Kysely<any>, accountUids: readonly string[], names: ReadonlyMap<string, string> = new Map()): Promise<SyncLock> {
  const client = await poolOf(db).connect();
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
    return {
      backendPid: me!.pid,
      release: async () => {
        await unlockAll();
        client.release();
      },
    };
  } catch (e) {
    await unlockAll();
    client.release();
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
