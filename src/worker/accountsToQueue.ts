import type { Kysely } from 'kysely';
import type { Database } from '../db/databaseTypes.js';
import { TradeledgerError } from '../errors.js';
import type { SyncAccount } from '../extract/syncOptions.js';
import { recordAccount } from '../extract/syncRunRecord.js';

/**
 * The UID of every account to enqueue: from the config, else from an earlier sync's `accounts`
 * row of the same name (a sync discovers a UID the config left out). A queue is named after the
 * UID, so an account with neither is refused, naming the fix. Each account is recorded in
 * `accounts`, as a sync would, so `status` can name it while its job waits.
 *
 * @example
 * const targets = await accountsToQueue(db, config.accounts, 'tradeledger.json'); // [{ account: 'main', uid: '2000001117' }]
 */
export async function accountsToQueue(db: Kysely<Database>, accounts: readonly SyncAccount[], source: string): Promise<{ account: string; uid: string }[]> {
  const known = new Map((await db.selectFrom('accounts').select(['name', 'uid']).execute()).map((r) => [r.name, r.uid]));
  const targets = accounts.map((a) => {
    const uid = a.uid ?? known.get(a.name);
    if (uid === undefined) {
      throw new TradeledgerError('ACCOUNT_UID_UNKNOWN', `${source}: account "${a.name}" has no uid, and no earlier sync recorded one; a worker queue is named after the account UID`, {
        kind: 'config', details: { account: a.name },
        hint: `add "uid": "<the account UID shown on the exchange>" to account "${a.name}", or run \`tradeledger sync --account ${a.name}\` once`,
      });
    }
    return { account: a.name, uid, kind: a.kind, parentName: a.parentName };
  });
  // Known by name before their first sync, so `status` names queued accounts rather than UIDs.
  for (const t of targets) {
    const parentUid = targets.find((p) => p.account === t.parentName)?.uid ?? null;
    await recordAccount(db, { uid: t.uid, name: t.account, kind: t.kind, parentUid });
  }
  return targets.map((t) => ({ account: t.account, uid: t.uid }));
}
