import { DAY_MS } from '../../../api/endpoints.js';
import { ApiFailure } from '../ApiFailure.js';
import type { Handler, RequestContext } from '../RequestContext.js';
import { spotMarket, type SpotMarket } from '../../data/catalog.js';
import { candleHorizonDays, candleOpens, granularities, marketCandles } from '../../data/marketCandles.js';

/**
 * X11 market candles and X12 history candles (api-notes.md "Market candles"): public, limited
 * per IP. `candles` answers the newest `limit` candles with startTime <= open <= endTime (default
 * now) within the granularity's reach; `history-candles` the `limit` candles opening before the
 * required endTime, however old. Both answer oldest first.
 */
export const candleRoutes: Record<'marketCandles' | 'marketHistoryCandles', Handler> = {
  marketCandles(ctx) {
    const { market, length } = marketOf(ctx);
    const limit = ctx.params.limit({ default: 100, max: 1000 });
    const horizon = candleHorizonDays(length);
    const reach = horizon === undefined ? 0 : ctx.now - horizon * DAY_MS;
    const from = Math.max(ctx.params.time('startTime') ?? 0, reach);
    const to = Math.min(ctx.params.time('endTime') ?? ctx.now, ctx.now);
    if (to < from) return [];
    return marketCandles(ctx.world, market, candleOpens(from, to, length, limit), length, ctx.now);
  },

  marketHistoryCandles(ctx) {
    const { market, length } = marketOf(ctx);
    const limit = ctx.params.limit({ default: 100, max: 200 });
    const end = Math.min(requiredTime(ctx, 'endTime'), ctx.now + 1);
    return marketCandles(ctx.world, market, candleOpens(0, end - 1, length, limit).filter((t) => t < end), length, ctx.now);
  },
};

function marketOf(ctx: RequestContext): { market: SpotMarket; length: number } {
  const symbol = ctx.params.required('symbol');
  const granularity = ctx.params.required('granularity');
  const length = granularities[granularity];
  if (length === undefined) throw ApiFailure.of('40017', `granularity must be one of ${Object.keys(granularities).join(', ')} (got ${granularity})`);
  const market = spotMarket(symbol);
  if (market === undefined) throw ApiFailure.of('40034', `symbol ${symbol}`);
  return { market, length };
}

function requiredTime(ctx: RequestContext, name: string): number {
  ctx.params.required(name);
  return ctx.params.time(name)!;
}
