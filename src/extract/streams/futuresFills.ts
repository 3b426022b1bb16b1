import type { HistoryStream } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { byProductType } from '../partitions.js';
import { json, ms, num, text } from '../../load/column.js';

/** X5 futures fills, every product type; feeDetail is an array here. */
export const futuresFills: HistoryStream = {
  kind: 'history',
  name: 'futuresFills',
  endpoint: 'futuresFills',
  table: 'futures_fills',
  key: ['product_type', 'trade_id'],
  partitions: byProductType,
  spanDays: 90,
  limit: 100,
  horizonDays: undefined,
  mutable: false,
  timeField: 'cTime',
  idField: 'tradeId',
  readPage: listWithCursor(['fillList', 'resultList'], 'endId', 'tradeId'),
  fees: 'futuresFill',
  demo: true,
  sub: true,
  columns: {
    trade_id: text('tradeId'), order_id: text('orderId'), symbol: text('symbol'), side: text('side'),
    trade_side: text('tradeSide'), pos_mode: text('posMode'), trade_scope: text('tradeScope'),
    margin_coin: text('marginCoin'), margin_mode: text('marginMode'), price: num('price'),
    base_volume: num('baseVolume'), quote_volume: num('quoteVolume'), profit: num('profit'),
    fee_detail: json('feeDetail'), enter_point_source: text('enterPointSource'), c_time: ms('cTime'),
  },
};
