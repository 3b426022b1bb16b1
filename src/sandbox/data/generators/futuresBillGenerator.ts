import type { ProductType } from '../../../api/endpoints.js';
import type { FuturesBill } from '../../../api/records/mix.js';
import { futuresMarkets } from '../catalog.js';
import { usdIn } from './tradeAmounts.js';
import { cover, rngFor, type RecordGenerator } from './genContext.js';

/**
 * The bill types generated here. trans_from_exchange / trans_to_exchange are the futures side of
 * E19 transfers (counterLegs.ts), placed into this series at the transfer's time.
 */
export const futuresBillTypes = [
  'open_long', 'open_short', 'close_long', 'close_short', 'contract_settle_fee',
  'burst_long_loss_query', 'burst_short_loss_query',
] as const;

/**
 * Futures account bills (X6): funding (`contract_settle_fee`), realized PnL on closes and liquidations, open fees;
 * `balance` is the running balance of the coin (filled in by the series).
 *
 * @example
 * futuresBillGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const futuresBillGenerator: RecordGenerator<FuturesBill> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const m = cover(futuresMarkets[ctx.partition as ProductType] ?? futuresMarkets['USDT-FUTURES'], j, ctx, rng);
  const coin = cover(m.marginCoins, j, ctx, rng, 1);
  const type = cover(futuresBillTypes, j, ctx, rng, 2);
  const pnlSign = rng.chance(0.55) ? 1 : -1;
  // Amounts are drawn in dollars and written in the margin coin, so a BTC-margined account moves
  // what a USDT one does (a running balance per coin sums them: balancedSeries.ts).
  const amount = type.startsWith('open_') ? '0'
    : type.startsWith('close_') ? usdIn(coin, pnlSign * rng.range(1, 200_000) / 100, t, 8)
    : type === 'contract_settle_fee' ? usdIn(coin, pnlSign * rng.range(1, 2_000) / 100, t, 8)
    : usdIn(coin, -rng.range(5_000, 300_000) / 100, t, 8);
  const trade = type.startsWith('open_') || type.startsWith('close_');
  const coupon = trade && rng.chance(0.1);
  return {
    billId: id.toString(),
    symbol: m.symbol,
    amount,
    fee: trade ? usdIn(coin, -rng.range(1, 2_000) / 100, t, 8) : '0',
    feeByCoupon: coupon ? usdIn(coin, -rng.range(1, 100) / 100, t, 8) : '0',
    businessType: type,
    coin,
    // The running balance of the coin is filled in by the series (balancedSeries.ts).
    balance: '0',
    cTime: String(t),
  };
};
