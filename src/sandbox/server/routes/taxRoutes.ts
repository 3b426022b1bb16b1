import type { TaxFutureRecord, TaxSpotRecord } from '../../../api/records/tax.js';
import type { Handler } from '../RequestContext.js';
import { pageLimit, windowOf } from '../endpointRules.js';
import { byParams, historyPage, seriesOf } from '../historyPage.js';

/**
 * X7 and X8, the long-history route. Both times are required and the span is the configurable
 * tax span (30 days by default, 366 in another copy of the docs), refused with 00001.
 * Cursor: the last record id.
 */
export const taxRoutes: Record<'taxSpotRecords' | 'taxFutureRecords', Handler> = {
  taxSpotRecords(ctx) {
    const window = windowOf(ctx, { required: true, maxSpanDays: ctx.taxSpanDays, spanError: '00001' });
    const filter = byParams<TaxSpotRecord>(ctx.params, { coin: 'coin' });
    return historyPage(seriesOf(ctx, 'taxSpotRecords'), window, ctx.params.id('idLessThan'), pageLimit(ctx), filter);
  },

  taxFutureRecords(ctx) {
    const window = windowOf(ctx, { required: true, maxSpanDays: ctx.taxSpanDays, spanError: '00001' });
    const filter = byParams<TaxFutureRecord>(ctx.params, { symbol: 'symbol', marginCoin: 'marginCoin' });
    return historyPage(seriesOf(ctx, 'taxFutureRecords'), window, ctx.params.id('idLessThan'), pageLimit(ctx), filter);
  },
};
