import { marginTaxTypes, type MarginRecord, type MarginTaxType } from '../../../api/records/margin.js';
import { usdIn } from './tradeAmounts.js';
import { cover, rngFor, type RecordGenerator } from './genContext.js';

const inflow: ReadonlySet<MarginTaxType> = new Set(['transfer_in', 'borrow', 'compensate', 'deal_in', 'exchange_in']);
/**
 * transfer_in / transfer_out are not generated here: they are the margin side of E19 transfers
 * (counterLegs.ts), placed into this series at the transfer's time.
 */
const ownTypes: readonly MarginTaxType[] = marginTaxTypes.filter((t) => t !== 'transfer_in' && t !== 'transfer_out');
const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] as const;
const coins = ['USDT', 'BTC', 'ETH'] as const;

/**
 * Margin transaction records (E5), every marginTaxType but the transfers, in the 'crossed' or 'isolated' partition.
 *
 * @example
 * marginRecordGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const marginRecordGenerator: RecordGenerator<MarginRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const type = cover(ownTypes, j, ctx, rng);
  const deal = type === 'deal_in' || type === 'deal_out';
  const coin = cover(coins, j, ctx, rng, 1);
  const interest = type === 'interest_repay' || type === 'liquidation_fee';
  return {
    id: id.toString(),
    coin,
    symbol: ctx.partition === 'isolated' ? cover(symbols, j, ctx, rng, 2) : '',
    marginTaxType: type,
    // Drawn in dollars, written in the coin; interest and liquidation fees are small.
    amount: usdIn(coin, (inflow.has(type) ? 1 : -1) * rng.range(100, interest ? 2_000 : 300_000) / 100, t, 8),
    fee: deal ? usdIn(coin, -rng.range(1, 500) / 100, t, 8) : '0',
    // The running balance of the coin in this margin wallet, filled in by the series (balancedSeries.ts).
    total: '0',
    ts: String(t),
  };
};
