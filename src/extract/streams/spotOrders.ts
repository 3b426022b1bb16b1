import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { jsonText, ms, num, text } from '../../load/column.js';

/**
 * X1 spot history orders. Orders fill and cancel after creation, so the stream is mutable; the
 * orders still live at the last sync that the windows did not cover are re-checked through E15,
 * and the look-back reaches back only as far as that is cheaper (lookbackStart.ts).
 * Fee rows need the coin an order receives, so it reads the symbol list.
 */
export const spotOrders: HistoryStream = {
  kind: 'history',
  name: 'spotOrders',
  endpoint: 'spotHistoryOrders',
  table: 'spot_orders',
  key: ['order_id'],
  partitions: () => single,
  spanDays: 90,
  limit: 100,
  horizonDays: 90,
  mutable: true,
  // An order's cTime is stamped when it is placed: only orders still live can change, and each is
  // asked for by id (E15) when that is cheaper than re-reading the pages since it.
  lookbackOpenOnly: { timeColumn: 'c_time' },
  timeField: 'cTime',
  idField: 'orderId',
  readPage: arrayBySmallestId('orderId'),
  fees: 'spotOrder',
  needsSymbols: true,
  recheckOpen: { by: 'id', endpoint: 'spotOrderInfo', idParam: 'orderId' },
  demo: false,
  sub: true,
  columns: {
    order_id: text('orderId'), client_oid: text('clientOid'), symbol: text('symbol'), side: text('side'),
    order_type: text('orderType'), status: text('status'), price: num('price'), size: num('size'),
    price_avg: num('priceAvg'), base_volume: num('baseVolume'), quote_volume: num('quoteVolume'),
    enter_point_source: text('enterPointSource'), order_source: text('orderSource'),
    cancel_reason: text('cancelReason'), fee_detail: jsonText('feeDetail'), c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
