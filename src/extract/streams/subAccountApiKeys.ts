import type { Partition, SnapshotStream } from '../streamDef.js';
import { text, textArray } from '../../load/column.js';
import { asEntries } from '../asList.js';

/**
 * E8 API keys of each sub-account (listing only: it never carries a secret, and the loader strips
 * any secret-like field from the raw record before storing it).
 */
export const subAccountApiKeys: SnapshotStream = {
  kind: 'snapshot',
  name: 'subAccountApiKeys',
  endpoint: 'subAccountApiKeys',
  table: 'sub_account_api_key_snapshots',
  key: ['sub_account_uid', 'api_key'],
  accountColumn: 'main_uid',
  partitions: async (ctx) => (await ctx.subAccountUids()).map((uid): Partition => ({
    key: uid, params: { subAccountUid: uid }, columns: { sub_account_uid: uid },
  })),
  fetch: async (call, p) => asEntries(await call('subAccountApiKeys', { ...p.params })),
  demo: false,
  sub: false,
  columns: {
    api_key: text('subAccountApiKey'), label: text('label'), perm_list: textArray('permList'), ip_list: textArray('ipList'),
  },
};
