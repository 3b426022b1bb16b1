import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { json, ms, num, text } from '../../load/column.js';

/** X2 spot fills: immutable once made. */
export const spotFills: HistoryStream = {
  kind: 'history',
  name: 'spotFills',
  endpoint: 'spotFills',
  table: 'spot_fills',
  key: ['trade_id'],
  partitions: () => single,
  spanDays: 90,
  limit: 100,
  horizonDays: undefined,
  mutable: false,
  timeField: 'cTime',
  idField: 'tradeId',
  readPage: arrayBySmallestId('tradeId'),
  fees: 'spotFill',
  demo: false,
  sub: true,
  columns: {
    trade_id: text('tradeId'), order_id: text('orderId'), symbol: text('symbol'), side: text('side'),
    order_type: text('orderType'), trade_scope: text('tradeScope'), price_avg: num('priceAvg'), size: num('size'),
    amount: num('amount'), fee_detail: json('feeDetail'), c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
