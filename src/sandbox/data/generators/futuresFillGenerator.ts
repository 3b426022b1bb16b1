import type { FuturesFill, FuturesHistoryOrder } from '../../../api/records/mix.js';
import { ID_PER_MS } from '../chunk.js';
import { platformCoin } from '../catalog.js';
import { decimalText, mulText } from '../decimalText.js';
import { cover, parentOrder, rngFor, type RecordGenerator } from './genContext.js';
import { futuresEnterPoints, futuresTradeShape } from './futuresShape.js';
import { feeOf, inPlatformCoin, priceNear, quantityNear } from './tradeAmounts.js';

/** The fill of a generated futures order: its symbol, sides, volume, fee and profit. */
function fillOf(o: FuturesHistoryOrder, t: number, id: bigint): FuturesFill {
  return {
    tradeId: id.toString(), symbol: o.symbol, orderId: o.orderId, price: o.priceAvg, baseVolume: o.baseVolume,
    feeDetail: [{ deduction: 'no', feeCoin: o.marginCoin, totalDeductionFee: '0', totalFee: o.fee }],
    side: o.side, quoteVolume: o.quoteVolume, profit: o.totalProfits, enterPointSource: o.enterPointSource,
    tradeSide: o.tradeSide, posMode: o.posMode, tradeScope: o.orderType === 'limit' ? 'maker' : 'taker',
    marginCoin: o.marginCoin, marginMode: o.marginMode, cTime: String(t),
  };
}

const filled = (o: FuturesHistoryOrder): boolean => o.status === 'filled';

/**
 * Futures fills (X5) per product type: array feeDetail, realized profit on closing fills. Like
 * spot fills, a fill belongs to a generated filled order when one is free, else stands alone.
 *
 * @example
 * futuresFillGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const futuresFillGenerator: RecordGenerator<FuturesFill> = (ctx, j, t, id) => {
  const parent = parentOrder<FuturesHistoryOrder>(ctx, j, filled);
  if (parent !== undefined) return fillOf(parent, t, id);
  const rng = rngFor(ctx, j);
  const s = futuresTradeShape(ctx, j, rng);
  const m = s.market;
  const price = priceNear(m, t, rng);
  const baseVolume = quantityNear(m, m.volumePlace, t, rng);
  const quoteVolume = mulText(baseVolume, price, m.pricePlace + m.volumePlace);
  const tradeScope = cover(['taker', 'maker'] as const, j, ctx, rng, 5);
  const fee = feeOf(quoteVolume, tradeScope === 'maker' ? '0.0002' : '0.0006');
  const variant = (j + ctx.coverOffset) % 4;
  const platformFee = variant === 0 && !ctx.account.demo ? inPlatformCoin(fee, t) : '';
  const feeDetail = variant === 0 && !ctx.account.demo
    ? [{ deduction: 'yes' as const, feeCoin: platformCoin, totalDeductionFee: platformFee, totalFee: platformFee }]
    : variant === 1 && tradeScope === 'maker'
      ? [{ deduction: 'no' as const, feeCoin: s.marginCoin, totalDeductionFee: '0', totalFee: fee.replace(/^-/, '') }]
      : [{ deduction: 'no' as const, feeCoin: s.marginCoin, totalDeductionFee: '0', totalFee: fee }];
  const orderTime = Math.max(0, t - rng.int(120_000));
  return {
    tradeId: id.toString(),
    symbol: m.symbol,
    orderId: (BigInt(orderTime) * ID_PER_MS + BigInt(rng.int(999_000))).toString(),
    price,
    baseVolume,
    feeDetail,
    side: s.side,
    quoteVolume,
    profit: s.closing ? decimalText((rng.chance(0.55) ? 1 : -1) * rng.range(1, 50_000_000), 8) : '0',
    enterPointSource: cover(futuresEnterPoints, j, ctx, rng, 6),
    tradeSide: s.tradeSide,
    posMode: s.posMode,
    tradeScope,
    marginCoin: s.marginCoin,
    marginMode: s.marginMode,
    cTime: String(t),
  };
};
