import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { TradeledgerError } from '../errors.js';
import type { SyncAccount } from '../extract/syncOptions.js';

/**
 * The UID of every account to enqueue: from the config, else from an earlier sync's `accounts`
 * row of the same name (a sync discovers a UID the config left out). A queue is named after the
 * UID, so an account with neither is refused, naming the fix.
 *
 * @example
 * const targets = await accountsToQueue(db, config.accounts, 'tradeledger.json'); // [{ account: 'main', uid: '2000001117' }]
 */
export async function accountsToQueue(db: Kysely<any>, accounts: readonly SyncAccount[], source: string): Promise<{ account: string; uid: string }[]> {
  const known = new Map((await sql<{ name: string; uid: string }>`SELECT name, uid FROM accounts`.execute(db)).rows.map((r) => [r.name, r.uid]));
  return accounts.map((a) => {
    const uid = a.uid ?? known.get(a.name);
    if (uid === undefined) {
      throw new TradeledgerError('ACCOUNT_UID_UNKNOWN', `${source}: account "${a.name}" has no uid, and no earlier sync recorded one; a worker queue is named after the account UID`, {
        kind: 'config', details: { account: a.name },
        hint: `add "uid": "<the account UID shown on the exchange>" to account "${a.name}", or run \`tradeledger sync --account ${a.name}\` once`,
      });
    }
    return { account: a.name, uid };
  });
}
