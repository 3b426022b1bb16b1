import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { HistoryStream, Partition } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { byProductType } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

const planTypes = ['normal_plan', 'track_plan', 'profit_loss'] as const;

/**
 * For a partition synced before `sync_state.current_from` was recorded only: the oldest order of
 * this account and product type seen pending by the latest run that saw any (all plan types
 * together). Not exact: a sibling plan-type partition of the running sync may already have
 * stamped its own orders with this run, which hides the others; current_from replaced it.
 */
async function oldestCurrent(db: Kysely<any>, account: string, partition: Partition): Promise<number | undefined> {
  const productType = partition.columns.product_type ?? '';
  const { rows } = await sql<{ t: Date | null }>`
    SELECT min(c_time) AS t FROM plan_orders WHERE account_uid = ${account} AND product_type = ${productType}
      AND seen_run_id = (SELECT max(seen_run_id) FROM plan_orders WHERE account_uid = ${account} AND product_type = ${productType})`.execute(db);
  return rows[0]?.t?.getTime();
}

/**
 * E11 pending trigger orders, per product type and planType. They are current state (an order
 * leaves the list once triggered): each run re-reads from the oldest order pending at the last
 * run and stamps last_seen_at, so `last_seen_at` older than the latest run means "no longer pending".
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
  current: { oldestCurrent },
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
