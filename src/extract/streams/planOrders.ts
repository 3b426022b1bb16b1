import type { HistoryStream, Partition } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { byProductType } from '../partitions.js';
import { ms, num, text } from '../column.js';

const planTypes = ['normal_plan', 'track_plan', 'profit_loss'] as const;

/**
 * E11 pending trigger orders, per product type and planType. They are current state (an order
 * leaves the list once triggered), so every run re-reads all windows and stamps last_seen_at.
 */
export const planOrders: HistoryStream = {
  kind: 'history',
  name: 'planOrders',
  endpoint: 'pendingPlanOrders',
  table: 'plan_orders',
  key: ['product_type', 'order_id'],
  partitions: (ctx) => byProductType(ctx).flatMap((p) => planTypes.map((planType): Partition => ({
    key: `${p.key}/${planType}`, params: { ...p.params, planType }, columns: p.columns,
  }))),
  spanDays: 90,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  rescanAll: true,
  timeField: 'cTime',
  idField: 'orderId',
  readPage: listWithCursor(['entrustedList', 'resultList'], 'endId', 'orderId'),
  demo: true,
  sub: true,
  columns: {
    order_id: text('orderId'), plan_type: text('planType'), client_oid: text('clientOid'), symbol: text('symbol'),
    side: text('side'), trade_side: text('tradeSide'), pos_side: text('posSide'), pos_mode: text('posMode'),
    margin_mode: text('marginMode'), margin_coin: text('marginCoin'), order_type: text('orderType'),
    order_source: text('orderSource'), plan_status: text('planStatus'), trigger_type: text('triggerType'),
    size: num('size'), price: num('price'), execute_price: num('executePrice'), trigger_price: num('triggerPrice'),
    callback_ratio: num('callbackRatio'), c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
