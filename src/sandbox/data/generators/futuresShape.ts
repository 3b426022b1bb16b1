import type { ProductType } from '../../../api/endpoints.js';
import type { TradeSide } from '../../../api/records/mix.js';
import { futuresMarkets, type FuturesMarket } from '../catalog.js';
import type { Rng } from '../rng.js';
import { cover, type GenContext } from './genContext.js';

export const tradeSides: readonly TradeSide[] = [
  'open', 'close', 'reduce_close_long', 'reduce_close_short', 'offset_close_long', 'offset_close_short',
  'burst_close_long', 'burst_close_short', 'delivery_close_long', 'delivery_close_short',
];
export const futuresEnterPoints = ['WEB', 'API', 'SYS', 'ANDROID', 'IOS'] as const;

/** The common shape of one futures trade: market, margin coin, modes and sides, consistent with each other. */
export interface FuturesTradeShape {
  market: FuturesMarket;
  marginCoin: string;
  posMode: 'one_way_mode' | 'hedge_mode';
  posSide: 'long' | 'short' | 'net';
  marginMode: 'isolated' | 'crossed';
  tradeSide: TradeSide;
  side: 'buy' | 'sell';
  closing: boolean;
}

/**
 * Picks a futures trade's market, modes and sides for record j.
 *
 * @example
 * futuresTradeShape(ctx, j, rng).posSide; // 'net' in one-way mode
 */
export function futuresTradeShape(ctx: GenContext, j: number, rng: Rng): FuturesTradeShape {
  const markets = futuresMarkets[ctx.partition as ProductType] ?? futuresMarkets['USDT-FUTURES'];
  const market = cover(markets, j, ctx, rng);
  const marginCoin = cover(market.marginCoins, j, ctx, rng, 1);
  const posMode = cover(['one_way_mode', 'hedge_mode'] as const, j, ctx, rng, 2);
  const tradeSide = cover(tradeSides, j, ctx, rng, 3);
  const long = tradeSide.endsWith('_long') ? true : tradeSide.endsWith('_short') ? false : rng.chance(0.5);
  const posSide = posMode === 'one_way_mode' ? 'net' : long ? 'long' : 'short';
  const closing = tradeSide !== 'open';
  // Opening a long buys; closing a long sells.
  const side = long !== closing ? 'buy' : 'sell';
  return { market, marginCoin, posMode, posSide, marginMode: cover(['isolated', 'crossed'] as const, j, ctx, rng, 4), tradeSide, side, closing };
}
