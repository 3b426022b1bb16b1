import type { FuturesHistoryOrder } from '../../../api/records/mix.js';
import { decimalText, mulText } from '../decimalText.js';
import { cover, hexId, laterTime, rngFor, type RecordGenerator } from './genContext.js';
import { futuresEnterPoints, futuresTradeShape } from './futuresShape.js';
import { feeOf, priceNear, quantityNear } from './tradeAmounts.js';

const orderSources = [
  'normal', 'market', 'profit_market', 'loss_market', 'Trader_delegate', 'trader_profit', 'trader_loss', 'reverse',
  'trader_reverse', 'profit_limit', 'loss_limit', 'liquidation', 'delivery_close_long', 'delivery_close_short',
  'pos_profit_limit', 'pos_profit_market', 'pos_loss_limit', 'pos_loss_market',
] as const;
const forces = ['ioc', 'fok', 'gtc', 'post_only'] as const;

/**
 * Futures history orders (E21) per product type: both margin and position modes, every tradeSide, `canceled`.
 *
 * @example
 * futuresOrderGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const futuresOrderGenerator: RecordGenerator<FuturesHistoryOrder> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const s = futuresTradeShape(ctx, j, rng);
  const m = s.market;
  const status = cover(['filled', 'canceled', 'filled'] as const, j, ctx, rng, 5);
  const orderType = rng.chance(0.6) ? 'limit' : 'market';
  const price = priceNear(m, t, rng);
  const size = quantityNear(m, m.volumePlace, t, rng);
  const filled = status === 'filled';
  const quoteVolume = filled ? mulText(size, price, m.pricePlace + m.volumePlace) : '0';
  const sl = rng.chance(0.2);
  return {
    symbol: m.symbol,
    size,
    orderId: id.toString(),
    clientOid: hexId(rng),
    baseVolume: filled ? size : '0',
    fee: filled ? feeOf(quoteVolume, orderType === 'limit' ? '0.0002' : '0.0006') : '0',
    price: orderType === 'market' ? '0' : price,
    priceAvg: filled ? price : '0',
    status,
    side: s.side,
    force: cover(forces, j, ctx, rng, 6),
    totalProfits: filled && s.closing ? decimalText((rng.chance(0.55) ? 1 : -1) * rng.range(1, 50_000_000), 8) : '0',
    posSide: s.posSide,
    marginCoin: s.marginCoin,
    quoteVolume,
    leverage: String(cover([5, 10, 20, 50, 125], j, ctx, rng, 7)),
    marginMode: s.marginMode,
    reduceOnly: s.closing && s.posMode === 'one_way_mode' ? 'YES' : 'NO',
    enterPointSource: cover(futuresEnterPoints, j, ctx, rng, 8),
    tradeSide: s.tradeSide,
    posMode: s.posMode,
    orderType,
    orderSource: cover(orderSources, j, ctx, rng, 9),
    cTime: String(t),
    uTime: String(laterTime(ctx, t, rng, 300_000)),
    presetStopSurplusPrice: sl ? priceNear(m, t, rng, 80) : '',
    presetStopLossPrice: sl ? priceNear(m, t, rng, 80) : '',
  };
};
