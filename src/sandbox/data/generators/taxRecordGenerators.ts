import type { TaxFutureRecord, TaxSpotRecord } from '../../../api/records/tax.js';
import { futuresMarkets } from '../catalog.js';
import { decimalText } from '../decimalText.js';
import { cover, rngFor, type RecordGenerator } from './genContext.js';

const spotTaxTypes = [
  ['deposit', 1], ['withdraw', -1], ['buy', 1], ['sell', -1], ['transfer_in', 1], ['transfer_out', -1],
  ['deduction_handling_fee', -1], ['airdrop_reward', 1], ['convert_in', 1], ['convert_out', -1],
] as const;
const futureTaxTypes = [
  ['open_long', 0], ['open_short', 0], ['close_long', 1], ['close_short', -1], ['contract_settle_fee', -1],
  ['trans_from_exchange', 1], ['trans_to_exchange', -1], ['burst_long_loss_query', -1],
] as const;
const realFutures = [...futuresMarkets['USDT-FUTURES'], ...futuresMarkets['USDC-FUTURES'], ...futuresMarkets['COIN-FUTURES']];

/**
 * Tax spot records (X7).
 *
 * @example
 * taxSpotGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const taxSpotGenerator: RecordGenerator<TaxSpotRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const [type, sign] = cover(spotTaxTypes, j, ctx, rng);
  const trade = type === 'buy' || type === 'sell';
  return {
    id: id.toString(),
    coin: cover(['USDT', 'BTC', 'ETH', 'BGB', 'SOL'] as const, j, ctx, rng, 1),
    spotTaxType: type,
    amount: decimalText(sign * rng.range(1, 900_000_000), 8),
    fee: trade ? decimalText(-rng.range(1, 90_000), 8) : '0',
    total: decimalText(rng.range(0, 900_000_000_000), 8),
    ts: String(t),
  };
};

/**
 * Tax future records (X8).
 *
 * @example
 * taxFutureGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const taxFutureGenerator: RecordGenerator<TaxFutureRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const [type, sign] = cover(futureTaxTypes, j, ctx, rng);
  const m = cover(realFutures, j, ctx, rng, 1);
  const pnl = sign === 0 ? '0' : decimalText((type.startsWith('close') ? (rng.chance(0.55) ? 1 : -1) : sign) * rng.range(1, 90_000_000), 8);
  return {
    id: id.toString(),
    symbol: type.startsWith('trans_') ? '' : m.symbol,
    marginCoin: cover(m.marginCoins, j, ctx, rng, 2),
    futureTaxType: type,
    amount: pnl,
    fee: type.startsWith('open') || type.startsWith('close') ? decimalText(-rng.range(1, 90_000), 8) : '0',
    ts: String(t),
  };
};
