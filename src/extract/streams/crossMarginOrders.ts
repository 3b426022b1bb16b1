import type { HistoryStream, Partition } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { ms, num, text } from '../../load/column.js';

/**
 * E13 cross-margin current orders. The endpoint needs a symbol, so each configured (or listed)
 * spot symbol is a partition. Orders change status, so the stream is mutable; one still live that
 * the windows no longer reach is asked for by its orderId every run until final.
 */
export const crossMarginOrders: HistoryStream = {
  kind: 'history',
  name: 'crossMarginOrders',
  endpoint: 'crossMarginOpenOrders',
  table: 'cross_margin_orders',
  key: ['order_id'],
  partitions: async (ctx) => (await ctx.symbols()).map((s): Partition => ({ key: s, params: { symbol: s }, columns: {} })),
  spanDays: undefined,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  // cTime is stamped when the order is placed: only live orders can change (lookbackStart.ts).
  lookbackOpenOnly: { timeColumn: 'c_time', partitionColumn: 'symbol' },
  timeField: 'cTime',
  idField: 'orderId',
  readPage: listWithCursor(['orderList', 'resultList'], 'minId', 'orderId'),
  // E13 takes an orderId (and requires a startTime): an order still live is asked for by it.
  recheckOpen: { by: 'id', endpoint: 'crossMarginOpenOrders', idParam: 'orderId', sendTime: true },
  needsSymbols: true,
  demo: false,
  sub: true,
  columns: {
    order_id: text('orderId'), client_oid: text('clientOid'), symbol: text('symbol'), side: text('side'),
    order_type: text('orderType'), force: text('force'), status: text('status'), loan_type: text('loanType'),
    price: num('price'), price_avg: num('priceAvg'), size: num('size'), amount: num('amount'),
    base_size: num('baseSize'), quote_size: num('quoteSize'), enter_point_source: text('enterPointSource'),
    c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
