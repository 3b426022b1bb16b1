import { marginTaxTypes, type MarginRecord, type MarginTaxType } from '../../../api/records/margin.js';
import { decimalText } from '../decimalText.js';
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
  return {
    id: id.toString(),
    coin: cover(coins, j, ctx, rng, 1),
    symbol: ctx.partition === 'isolated' ? cover(symbols, j, ctx, rng, 2) : '',
    marginTaxType: type,
    amount: decimalText((inflow.has(type) ? 1 : -1) * rng.range(1, 90_000_000), 8),
    fee: deal ? decimalText(-rng.range(1, 90_000), 8) : '0',
    total: decimalText(rng.range(0, 900_000_000_000), 8),
    ts: String(t),
  };
};
