import type { SpotBill } from '../../../api/records/spot.js';
import { decimalText } from '../decimalText.js';
import { cover, rngFor, type RecordGenerator } from './genContext.js';

const kinds = [
  ['deposit', 'deposit', 1], ['withdraw', 'withdraw', -1], ['transaction', 'buy', 1], ['transaction', 'sell', -1],
  ['transaction', 'deduction of handling fee', -1], ['transfer', 'transfer-in', 1], ['transfer', 'transfer-out', -1],
  ['other', 'rebate rewards', 1], ['other', 'airdrop rewards', 1],
] as const;
const coins = ['USDT', 'BTC', 'ETH', 'BGB', 'SOL'] as const;

/**
 * Spot account bills (X4). Balances are plausible, not a running sum.
 *
 * @example
 * spotBillGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const spotBillGenerator: RecordGenerator<SpotBill> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const [groupType, businessType, sign] = cover(kinds, j, ctx, rng);
  const coin = cover(coins, j, ctx, rng, 1);
  const trade = groupType === 'transaction' && businessType !== 'deduction of handling fee';
  return {
    billId: id.toString(),
    coin,
    groupType,
    businessType,
    size: decimalText(sign * rng.range(1, 5_000_000), 6),
    balance: decimalText(rng.range(0, 900_000_000), 6),
    fees: trade ? decimalText(-rng.range(1, 5_000), 8) : '0',
    cTime: String(t),
  };
};
