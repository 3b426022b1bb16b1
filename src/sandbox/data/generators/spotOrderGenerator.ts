import type { SpotOrder } from '../../../api/records/spot.js';
import { spotMarkets } from '../catalog.js';
import { mulText } from '../decimalText.js';
import { cover, hexId, laterTime, rngFor, type RecordGenerator } from './genContext.js';
import { legacyFeeForms, modernFeeForms, spotFeeDetail } from './spotFeeDetail.js';
import { feeOf, inPlatformCoin, part, priceNear, quantityNear } from './tradeAmounts.js';

const enterPoints = ['WEB', 'IOS', 'ANDROID', 'API', 'SYS'] as const;
const orderSources = ['normal', 'market', 'spot_trader_buy', 'spot_follower_buy', 'spot_trader_sell', 'spot_follower_sell'] as const;
const openStatuses = ['live', 'partially_filled', 'filled', 'cancelled'] as const;

/**
 * Spot orders (spec §2.2): every status, cancel reason, source and feeDetail form.
 *
 * @example
 * spotOrderGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const spotOrderGenerator: RecordGenerator<SpotOrder> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  // Every 50th order is a dust buy of BTC whose fee (-8.9E-8) needs exponent notation.
  const dust = j % 50 === 7;
  const m = dust ? spotMarkets[0]! : cover(spotMarkets, j, ctx, rng);
  const side = dust ? 'buy' : cover(['buy', 'sell'] as const, j, ctx, rng, 1);
  const open = j >= ctx.openFrom;
  const status = open
    ? openStatuses[(j + ctx.coverOffset) % openStatuses.length]!
    : dust || rng.chance(0.72) ? 'filled' : 'cancelled';
  const orderType = dust || status === 'live' || status === 'partially_filled' || rng.chance(0.7) ? 'limit' : 'market';
  const price = priceNear(m, t, rng);
  const qty = dust ? '0.000089' : quantityNear(m, m.qtyPlace, t, rng);
  const fillPerMille = status === 'filled' ? 1000
    : status === 'partially_filled' ? rng.range(100, 900)
    : status === 'cancelled' && rng.chance(0.3) ? rng.range(100, 900) : 0;
  const baseVolume = part(qty, fillPerMille, m.qtyPlace);
  const quoteVolume = mulText(baseVolume, price, m.pricePlace + m.qtyPlace);
  const marketBuy = orderType === 'market' && side === 'buy';
  let feeDetail = '';
  if (!/^0*\.?0*$/.test(baseVolume)) {
    const received = side === 'buy' ? baseVolume : quoteVolume;
    const coin = side === 'buy' ? m.base : m.quote;
    const fee = feeOf(received, orderType === 'limit' ? '0.0008' : '0.001');
    const quoteValue = side === 'buy' ? mulText(fee, price, 12) : fee;
    const forms = t >= ctx.modernFrom ? modernFeeForms : legacyFeeForms;
    feeDetail = spotFeeDetail(forms[(j + ctx.coverOffset) % forms.length]!, coin, fee, inPlatformCoin(quoteValue, t));
  }
  const cancelled = status === 'cancelled';
  return {
    userId: ctx.account.uid,
    symbol: m.symbol,
    orderId: id.toString(),
    clientOid: hexId(rng),
    price: orderType === 'market' ? '0' : price,
    size: marketBuy ? mulText(qty, price, m.pricePlace) : qty,
    orderType,
    side,
    status,
    priceAvg: fillPerMille === 0 ? '0' : price,
    baseVolume,
    quoteVolume,
    enterPointSource: cover(enterPoints, j, ctx, rng, 2),
    orderSource: cover(orderSources, j, ctx, rng, 3),
    feeDetail,
    cancelReason: cancelled ? ((j + ctx.coverOffset) % 5 === 0 ? 'stp_cancel' : 'normal_cancel') : '',
    cTime: String(t),
    uTime: String(status === 'live' ? t : laterTime(ctx, t, rng, 600_000)),
  };
};
