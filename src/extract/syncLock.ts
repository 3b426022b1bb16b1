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
