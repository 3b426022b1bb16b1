import type { SnapshotStream } from '../streamDef.js';
import { single } from '../partitions.js';
import { text, textArray } from '../../load/column.js';
import { fetchSubAccounts } from '../fetchSubAccounts.js';

/** E10 virtual sub-accounts of a main account, paged by endId, each run. */
export const subAccounts: SnapshotStream = {
  kind: 'snapshot',
  name: 'subAccounts',
  endpoint: 'subAccounts',
  table: 'sub_account_snapshots',
  key: ['main_uid', 'sub_account_uid'],
  accountColumn: 'main_uid',
  partitions: () => single,
  fetch: (call) => fetchSubAccounts(call),
  demo: false,
  sub: false,
  columns: {
    sub_account_uid: text('subAccountUid'), sub_account_name: text('subAccountName'), status: text('status'),
    label: text('label'), perm_list: textArray('permList'),
  },
};
