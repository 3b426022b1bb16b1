import type { SnapshotStream } from '../streamDef.js';
import { byProductType } from '../partitions.js';
import { num, text } from '../../load/column.js';
import { asEntries } from '../asList.js';

/** E14 futures accounts, one row per margin coin and product type, each run. */
export const futuresAccounts: SnapshotStream = {
  kind: 'snapshot',
  name: 'futuresAccounts',
  endpoint: 'futuresAccounts',
  table: 'futures_account_snapshots',
  key: ['account_uid', 'product_type', 'margin_coin'],
  accountColumn: 'account_uid',
  partitions: byProductType,
  fetch: async (call, p) => asEntries(await call('futuresAccounts', { ...p.params })),
  demo: true,
  sub: true,
  columns: {
    margin_coin: text('marginCoin'), available: num('available'), locked: num('locked'),
    account_equity: num('accountEquity'), usdt_equity: num('usdtEquity'), unrealized_pl: num('unrealizedPL'),
    asset_mode: text('assetMode'),
  },
};
