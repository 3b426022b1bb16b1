import type { SnapshotStream } from '../streamDef.js';
import { byProductType } from '../partitions.js';
import { num, text } from '../../load/column.js';
import { asEntries } from '../asList.js';

/** E16 all open positions per product type, each run. */
export const positions: SnapshotStream = {
  kind: 'snapshot',
  name: 'positions',
  endpoint: 'allPositions',
  table: 'position_snapshots',
  key: ['account_uid', 'product_type', 'symbol', 'margin_coin', 'hold_side', 'margin_mode'],
  accountColumn: 'account_uid',
  partitions: byProductType,
  fetch: async (call, p) => asEntries(await call('allPositions', { ...p.params })),
  demo: true,
  sub: true,
  columns: {
    symbol: text('symbol'), margin_coin: text('marginCoin'), hold_side: text('holdSide'), margin_mode: text('marginMode'),
    total: num('total'), available: num('available'), locked: num('locked'), open_price_avg: num('openPriceAvg'),
    achieved_profits: num('achievedProfits'), unrealized_pl: num('unrealizedPL'), total_fee: num('totalFee'),
    leverage: num('leverage'), pos_mode: text('posMode'),
  },
};
