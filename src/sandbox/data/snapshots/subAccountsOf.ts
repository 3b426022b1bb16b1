import type { SubAccount } from '../../../api/records/user.js';
import type { SandboxAccount } from '../../world.js';
import type { SubAccountMeta } from '../buildAccounts.js';

/**
 * The E10 list of a main account's virtual sub-accounts, newest first (E10 pages by id downward).
 *
 * @example
 * subAccountsOf(accounts, subMeta, mainUid).map((s) => s.subAccountName);
 */
export function subAccountsOf(accounts: readonly SandboxAccount[], meta: ReadonlyMap<string, SubAccountMeta>, mainUid: string): SubAccount[] {
  const main = accounts.find((a) => a.uid === mainUid);
  if (main === undefined) return [];
  return main.subUids.flatMap((uid): SubAccount[] => {
    const sub = accounts.find((a) => a.uid === uid);
    const m = meta.get(uid);
    if (sub === undefined || m === undefined) return [];
    return [{
      subAccountUid: uid, subAccountName: sub.name, status: m.status, permList: [...(sub.keys[0]?.perms ?? [])],
      label: m.label, accountType: 'virtual', bindingTime: String(m.cTime), cTime: String(m.cTime), uTime: String(m.uTime),
    }];
  }).reverse();
}
