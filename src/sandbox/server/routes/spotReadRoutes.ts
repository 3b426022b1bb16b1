import type { SpotBill, SpotFill, SpotOrder } from '../../../api/records/spot.js';
import { ApiFailure } from '../ApiFailure.js';
import type { Handler } from '../RequestContext.js';
import { byParams, historyPage, lookupByField, lookupById, seriesOf } from '../historyPage.js';
import { pageLimit, windowOf } from '../endpointRules.js';
import { checkReceiveWindow } from './checkReceiveWindow.js';

/** E15, X1 spot history orders, X2 spot fills, X4 spot bills. */
export const spotReadRoutes: Record<'spotOrderInfo' | 'spotHistoryOrders' | 'spotFills' | 'spotBills', Handler> = {
  spotOrderInfo(ctx) {
    const orderId = ctx.params.optional('orderId');
    const clientOid = ctx.params.optional('clientOid');
    if (orderId === undefined && clientOid === undefined) throw ApiFailure.of('40019', 'orderId or clientOid');
    checkReceiveWindow(ctx);
    const series = seriesOf(ctx, 'spotOrders');
    return orderId !== undefined ? lookupById(series, orderId, undefined) : lookupByField(series, 'clientOid', clientOid ?? '', undefined);
  },

  /** Cursor: the last orderId of the page. */
  spotHistoryOrders(ctx) {
    const series = seriesOf(ctx, 'spotOrders');
    const filter = byParams<SpotOrder>(ctx.params, { symbol: 'symbol' });
    const orderId = ctx.params.optional('orderId');
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    if (orderId !== undefined) return lookupById(series, orderId, filter);
    return historyPage(series, window, cursor, limit, filter);
  },

  /** Cursor: the last tradeId. An orderId narrows to that order's fills and outranks the window. */
  spotFills(ctx) {
    const orderId = ctx.params.optional('orderId');
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const filter = byParams<SpotFill>(ctx.params, { symbol: 'symbol', orderId: 'orderId' });
    return historyPage(seriesOf(ctx, 'spotFills'), orderId === undefined ? window : {}, cursor, limit, filter);
  },

  /** Cursor: billId. */
  spotBills(ctx) {
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const filter = byParams<SpotBill>(ctx.params, { coin: 'coin', groupType: 'groupType', businessType: 'businessType' });
    return historyPage(seriesOf(ctx, 'spotBills'), window, cursor, limit, filter);
  },
};
