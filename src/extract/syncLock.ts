import type { Kysely } from 'kysely';
import { poolOf } from '../db/createDb.js';
import { TradeledgerError } from '../errors.js';

/**
 * Holds a session-level advisory lock for the whole run, so two syncs never write the same
 * checkpoints at once. A killed process's lock dies with its connection.
 *
 * @example
 * const lock = await holdSyncLock(db); try { ... } finally { await lock.release(); }
 */
export async function holdSyncLock(db: Kysely<any>): Promise<{ release: () => Promise<void> }> {
  const client = await poolOf(db).connect();
  const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('tradeledger.sync')) AS ok");
  if (rows[0]?.ok !== true) {
    client.release();
    throw new TradeledgerError('SYNC_RUNNING', 'another tradeledger sync is running against this database', {
      kind: 'config', hint: 'wait for it to finish (see `tradeledger status`), or stop it; a killed sync releases its lock at once',
    });
  }
  return {
    release: async () => {
      await client.query("SELECT pg_advisory_unlock(hashtext('tradeledger.sync'))").catch(() => undefined);
      client.release();
    },
  };
}

/**
 * Whether some session holds the sync lock right now, that is whether a sync is really running
 * (a sync_runs row saying 'running' may be left by a process that died with its database).
 * Reads pg_locks; never takes the lock, so it cannot get in a starting sync's way.
 *
 * @example
 * if (run.status === 'running' && !(await syncLockHeld(db))) run.status = 'interrupted';
 */
export async function syncLockHeld(db: Kysely<any>): Promise<boolean> {
  // A bigint advisory key is stored as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
  const { rows } = await poolOf(db).query<{ held: boolean }>(`SELECT EXISTS (
    SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
    WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted AND d.datname = current_database()
      AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('tradeledger.sync')::bigint) AS held`);
  return rows[0]?.held === true;
}
