import type { SpotFill, SpotOrder } from '../../../api/records/spot.js';
import { platformCoin, spotMarket, spotMarkets } from '../catalog.js';
import { mulText } from '../decimalText.js';
import { ID_PER_MS } from '../chunk.js';
import { cover, parentOrder, rngFor, type GenContext, type RecordGenerator } from './genContext.js';
import { orderFeeOf } from './orderFeeOf.js';
import { feeOf, inPlatformCoin, priceNear, quantityNear } from './tradeAmounts.js';

/** A fill of a generated order: same symbol, side, volume and fee as the order says. */
function fillOf(ctx: GenContext, o: SpotOrder, t: number, id: bigint): SpotFill {
  const cTime = String(t);
  const fee = orderFeeOf(o.feeDetail);
  const rebate = !fee.total.startsWith('-') && fee.total !== '0';
  const m = spotMarket(o.symbol);
  return {
    userId: ctx.account.uid, symbol: o.symbol, orderId: o.orderId, tradeId: id.toString(), orderType: o.orderType, side: o.side,
    priceAvg: o.priceAvg, size: o.baseVolume, amount: o.quoteVolume,
    feeDetail: fee.platform
      ? { deduction: 'yes', feeCoin: platformCoin, totalDeductionFee: fee.deducted, totalFee: fee.deducted }
      : { deduction: 'no', feeCoin: (o.side === 'buy' ? m?.base : m?.quote) ?? '', totalDeductionFee: '0', totalFee: fee.total },
    tradeScope: rebate || (o.orderType === 'limit' && o.status !== 'filled') ? 'maker' : 'taker',
    cTime, uTime: cTime,
  };
}

const traded = (o: SpotOrder): boolean => !/^0*\.?0*$/.test(o.baseVolume);

/**
 * Spot fills (X2): object feeDetail, platform-coin deductions positive, maker rebates positive.
 * A fill belongs to the latest generated order before it when that order traded and has no fill
 * yet; other fills stand alone (their orders lie outside the generated history).
 *
 * @example
 * spotFillGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const spotFillGenerator: RecordGenerator<SpotFill> = (ctx, j, t, id) => {
  const parent = parentOrder<SpotOrder>(ctx, j, traded);
  if (parent !== undefined) return fillOf(ctx, parent, t, id);
  const rng = rngFor(ctx, j);
  const m = cover(spotMarkets, j, ctx, rng);
  const side = cover(['buy', 'sell'] as const, j, ctx, rng, 1);
  const orderType = rng.chance(0.7) ? 'limit' : 'market';
  const tradeScope = orderType === 'market' ? 'taker' : cover(['taker', 'maker'] as const, j, ctx, rng, 2);
  const price = priceNear(m, t, rng);
  const size = quantityNear(m, m.qtyPlace, t, rng);
  const amount = mulText(size, price, m.pricePlace + m.qtyPlace);
  const received = side === 'buy' ? size : amount;
  const coin = side === 'buy' ? m.base : m.quote;
  const fee = feeOf(received, tradeScope === 'maker' ? '0.0008' : '0.001');
  const variant = (j + ctx.coverOffset) % 4;
  const quoteValue = side === 'buy' ? mulText(fee, price, 12) : fee;
  const platformFee = variant === 0 ? inPlatformCoin(quoteValue, t) : '';
  const feeDetail = variant === 0
    ? { deduction: 'yes' as const, feeCoin: platformCoin, totalDeductionFee: platformFee, totalFee: platformFee }
    : variant === 1 && tradeScope === 'maker'
      ? { deduction: 'no' as const, feeCoin: coin, totalDeductionFee: '0', totalFee: fee.replace(/^-/, '') }
      : { deduction: 'no' as const, feeCoin: coin, totalDeductionFee: '0', totalFee: fee };
  const orderTime = Math.max(0, t - rng.int(120_000));
  const time = String(t);
  return {
    userId: ctx.account.uid,
    symbol: m.symbol,
    orderId: (BigInt(orderTime) * ID_PER_MS + BigInt(rng.int(999_000))).toString(),
    tradeId: id.toString(),
    orderType,
    side,
    priceAvg: price,
    size,
    amount,
    feeDetail,
    tradeScope,
    cTime: time,
    uTime: time,
  };
};
