import type { HistoryStream } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { byProductType } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** E21 futures history orders, every product type; the endpoint sees only 90 days back. */
export const futuresOrders: HistoryStream = {
  kind: 'history',
  name: 'futuresOrders',
  endpoint: 'futuresHistoryOrders',
  table: 'futures_orders',
  key: ['product_type', 'order_id'],
  partitions: byProductType,
  spanDays: 90,
  limit: 100,
  horizonDays: 90,
  mutable: false,
  timeField: 'cTime',
  idField: 'orderId',
  readPage: listWithCursor(['entrustedList', 'resultList'], 'endId', 'orderId'),
  demo: true,
  sub: true,
  columns: {
    order_id: text('orderId'), client_oid: text('clientOid'), symbol: text('symbol'), side: text('side'),
    trade_side: text('tradeSide'), pos_side: text('posSide'), pos_mode: text('posMode'), margin_mode: text('marginMode'),
    margin_coin: text('marginCoin'), order_type: text('orderType'), order_source: text('orderSource'), force: text('force'),
    reduce_only: text('reduceOnly'), status: text('status'), price: num('price'), price_avg: num('priceAvg'), size: num('size'),
    base_volume: num('baseVolume'), quote_volume: num('quoteVolume'), fee: num('fee'), total_profits: num('totalProfits'),
    leverage: num('leverage'), preset_stop_surplus_price: num('presetStopSurplusPrice'),
    preset_stop_loss_price: num('presetStopLossPrice'), enter_point_source: text('enterPointSource'),
    c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
