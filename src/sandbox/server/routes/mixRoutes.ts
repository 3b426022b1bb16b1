import type { FuturesBill, FuturesFill, FuturesHistoryOrder, PlanOrder } from '../../../api/records/mix.js';
import { callerOf, type Handler } from '../RequestContext.js';
import { pageLimit, windowOf } from '../endpointRules.js';
import { checkDemoPair, readProductType } from '../futuresEnvironment.js';
import { byParams, historyPage, orderPage, seriesOf } from '../historyPage.js';

type MixRoute = 'demoContracts' | 'placeFuturesOrder' | 'pendingPlanOrders' | 'singlePosition' | 'futuresAccounts'
  | 'allPositions' | 'futuresHistoryOrders' | 'futuresFills' | 'futuresBills';

/** The futures (mix) endpoints. Every one enforces the demo rules through readProductType. */
export const mixRoutes: Record<MixRoute, Handler> = {
  demoContracts(ctx) {
    return ctx.world.contracts(readProductType(ctx));
  },

  placeFuturesOrder(ctx) {
    const p = ctx.params;
    const productType = readProductType(ctx);
    const orderType = p.requiredChoice('orderType', ['limit', 'market'] as const);
    const order: Record<string, string | undefined> = {
      symbol: p.required('symbol'), productType, marginMode: p.requiredChoice('marginMode', ['isolated', 'crossed'] as const),
      marginCoin: p.required('marginCoin'), size: p.amount('size', true), price: p.amount('price', orderType === 'limit'),
      side: p.requiredChoice('side', ['buy', 'sell'] as const), tradeSide: p.choice('tradeSide', ['open', 'close'] as const),
      orderType, force: p.choice('force', ['gtc', 'post_only', 'fok', 'ioc'] as const, 'gtc'), clientOid: p.optional('clientOid'),
      reduceOnly: p.choice('reduceOnly', ['YES', 'NO'] as const, 'NO'),
      presetStopSurplusPrice: p.amount('presetStopSurplusPrice', false), presetStopLossPrice: p.amount('presetStopLossPrice', false),
    };
    checkDemoPair(productType, { symbol: order.symbol, marginCoin: order.marginCoin });
    return ctx.world.placeFuturesOrder(callerOf(ctx).uid, order);
  },

  /** Default window: three months; span at most three months (40705); wrapper `{entrustedList, endId}`. */
  pendingPlanOrders(ctx) {
    const planType = ctx.params.requiredChoice('planType', ['normal_plan', 'track_plan', 'profit_loss'] as const);
    const productType = readProductType(ctx);
    checkDemoPair(productType, { symbol: ctx.params.optional('symbol') });
    const window = windowOf(ctx, { defaultSpanDays: 90 });
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const series = seriesOf(ctx, 'planOrders', productType);
    const filter = byParams<PlanOrder>(ctx.params, { symbol: 'symbol' }, undefined, { planType });
    const entrustedList = orderPage(series, ctx.params, window, cursor, limit, filter);
    return { entrustedList, endId: entrustedList.at(-1)?.orderId ?? null };
  },

  singlePosition(ctx) {
    const productType = readProductType(ctx);
    const symbol = ctx.params.required('symbol');
    const marginCoin = ctx.params.required('marginCoin');
    checkDemoPair(productType, { symbol, marginCoin });
    return ctx.world.positions(callerOf(ctx).uid, productType).filter((p) => p.symbol === symbol && p.marginCoin === marginCoin);
  },

  futuresAccounts(ctx) {
    return ctx.world.futuresAccounts(callerOf(ctx).uid, readProductType(ctx));
  },

  allPositions(ctx) {
    const productType = readProductType(ctx);
    const marginCoin = ctx.params.optional('marginCoin');
    checkDemoPair(productType, { marginCoin });
    const all = ctx.world.positions(callerOf(ctx).uid, productType);
    return marginCoin === undefined ? all : all.filter((p) => p.marginCoin === marginCoin);
  },

  /** 90-day horizon (40704); wrapper `{entrustedList, endId}`, endId = the page's last orderId. */
  futuresHistoryOrders(ctx) {
    const productType = readProductType(ctx);
    checkDemoPair(productType, { symbol: ctx.params.optional('symbol') });
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const series = seriesOf(ctx, 'futuresOrders', productType);
    const filter = byParams<FuturesHistoryOrder>(ctx.params, { symbol: 'symbol', orderSource: 'orderSource' });
    const entrustedList = orderPage(series, ctx.params, window, cursor, limit, filter);
    return { entrustedList, endId: entrustedList.at(-1)?.orderId ?? null };
  },

  /** Wrapper `{fillList, endId}`, endId = the page's last tradeId. */
  futuresFills(ctx) {
    const productType = readProductType(ctx);
    checkDemoPair(productType, { symbol: ctx.params.optional('symbol') });
    const orderId = ctx.params.optional('orderId');
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const filter = byParams<FuturesFill>(ctx.params, { symbol: 'symbol', orderId: 'orderId' });
    const fillList = historyPage(seriesOf(ctx, 'futuresFills', productType), orderId === undefined ? window : {}, cursor, limit, filter);
    return { fillList, endId: fillList.at(-1)?.tradeId ?? null };
  },

  /** Span at most 30 days (00001); wrapper `{bills, endId}`, endId = the page's last billId. */
  futuresBills(ctx) {
    const productType = readProductType(ctx);
    checkDemoPair(productType, { coin: ctx.params.optional('coin') });
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const filter = byParams<FuturesBill>(ctx.params, { coin: 'coin', businessType: 'businessType' });
    const bills = historyPage(seriesOf(ctx, 'futuresBills', productType), window, cursor, limit, filter);
    return { bills, endId: bills.at(-1)?.billId ?? null };
  },
};
