import { parseFeeDetail } from '../normalize/parseFeeDetail.js';
import type { FeeRow } from '../normalize/feeRow.js';
import { receivedCoin } from '../normalize/receivedCoin.js';

/** How fee rows are derived from a stream's records (parseFeeDetail's form). */
export type FeeForm = 'spotOrder' | 'spotFill' | 'futuresFill';

/** The table fee rows name as their source, per form. */
export const feeSource: Readonly<Record<FeeForm, string>> = { spotOrder: 'spot_orders', spotFill: 'spot_fills', futuresFill: 'futures_fills' };

/** Spot symbol -> base and quote coin, for the coin newFees amounts are in. */
export type SymbolCoins = (symbol: string) => { baseCoin: string; quoteCoin: string } | undefined;

/**
 * The fee rows of one record (one per coin paid), or the problems that kept them from being
 * derived. The feeDetail form depends on the stream: a JSON string on spot orders, an object on
 * spot fills, an array on futures fills.
 *
 * @example
 * const { rows, problems } = feeRows('spotOrder', rawOrder, coinsOf);
 */
export function feeRows(form: FeeForm, raw: Record<string, unknown>, coinsOf: SymbolCoins): { rows: FeeRow[]; problems: string[] } {
  let received: string | null = null;
  if (form === 'spotOrder') {
    const coins = typeof raw.symbol === 'string' ? coinsOf(raw.symbol) : undefined;
    if (coins !== undefined && (raw.side === 'buy' || raw.side === 'sell')) received = receivedCoin(raw.side, coins.baseCoin, coins.quoteCoin);
  }
  const parsed = parseFeeDetail(raw.feeDetail, { receivedCoin: received });
  return { rows: parsed.rows, problems: parsed.problems.map((p) => `feeDetail: ${p}`) };
}
