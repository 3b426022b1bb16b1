import type { CrossMarginOrder, MarginRecord } from '../../../api/records/margin.js';
import type { Handler } from '../RequestContext.js';
import { pageLimit, windowOf } from '../endpointRules.js';
import { byParams, historyPage, orderPage, seriesOf } from '../historyPage.js';

/** E5 margin transaction records and E13 cross-margin current orders. */
export const marginRoutes: Record<'marginRecords' | 'crossMarginOpenOrders', Handler> = {
  /** Both times required, span set by the tax-span setting (00001); cursor: the last record id. */
  marginRecords(ctx) {
    const marginType = ctx.params.choice('marginType', ['isolated', 'crossed'] as const, 'crossed') ?? 'crossed';
    const window = windowOf(ctx, { required: true, maxSpanDays: ctx.taxSpanDays, spanError: '00001' });
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const filter = byParams<MarginRecord>(ctx.params, { coin: 'coin' });
    return historyPage(seriesOf(ctx, 'marginRecords', marginType), window, cursor, limit, filter);
  },

  /** Wrapper `{orderList, maxId, minId}`; the next page's idLessThan is minId. */
  crossMarginOpenOrders(ctx) {
    ctx.params.required('symbol');
    ctx.params.required('startTime');
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const series = seriesOf(ctx, 'crossMarginOrders');
    const filter = byParams<CrossMarginOrder>(ctx.params, { symbol: 'symbol' });
    const orderList = orderPage(series, ctx.params, window, cursor, limit, filter);
    return { orderList, maxId: orderList[0]?.orderId ?? null, minId: orderList.at(-1)?.orderId ?? null };
  },
};
