import type { MarginRecord } from '../../api/records/margin.js';
import type { FuturesBill } from '../../api/records/mix.js';
import type { SpotBill } from '../../api/records/spot.js';
import type { DepositRecord } from '../../api/records/wallet.js';
import type { BalanceRules } from './balancedSeries.js';
import { UNIT_PLACES, units, unitsText } from './balancedSeries.js';
import { spotMarkets, walletCoins } from './catalog.js';

const HOUR = 3_600_000;
/**
 * The world declares its opening balances at its first day: opening records sit this long after
 * the world's start (now - HISTORY_SPAN_MS at creation), inside what a first sync reads by
 * default (730 days back), and generated history begins a day after the start, after them.
 */
export const OPENING_OFFSET_MS = 12 * HOUR;
export const HISTORY_LEAD_MS = 24 * HOUR;

/** Coins every (non-demo) account opens its spot wallet with. */
export const openingCoins: readonly string[] = walletCoins;

/** What the cushion above the history's lowest point is worth, in USD. */
const CUSHION_USD = 20_000n;

/** A coin's reference price as a fraction (mantissa, places): its USDT market's base price; 1 for dollars. */
function priceOf(coin: string): { m: bigint; places: number } {
  const plain = /^S[A-Z]{3,}$/.test(coin) && coin !== 'SOL' ? coin.slice(1) : coin;
  if (plain === 'USDT' || plain === 'USDC' || plain === 'USD') return { m: 1n, places: 0 };
  const m = spotMarkets.find((x) => x.base === plain && x.quote === 'USDT');
  return m === undefined ? { m: 1n, places: 0 } : { m: BigInt(m.basePrice), places: m.pricePlace };
}

/**
 * An amount worth `usd` dollars of `coin` at its reference price, in units (10^-18).
 *
 * @example
 * usdWorth('BTC', 65_000n); // 1 BTC in units
 */
export function usdWorth(coin: string, usd: bigint): bigint {
  const p = priceOf(coin);
  return (usd * 10n ** BigInt(UNIT_PLACES + p.places)) / p.m;
}

/** Rounds units up to three significant digits (an amount a person would deposit). */
function roundUpNicely(u: bigint): bigint {
  if (u <= 0n) return 0n;
  const digits = u.toString().length;
  const step = digits > 3 ? 10n ** BigInt(digits - 3) : 1n;
  return ((u + step - 1n) / step) * step;
}

/**
 * The opening balance of a coin whose history, from zero, dips to `lowest` (<= 0): enough to
 * keep every balance of that history at or above zero, a quarter more, and a cushion worth
 * $20,000 for what settles or grows later; rounded up to three significant digits.
 *
 * @example
 * unitsText(openingAmount('USDT', -units('1000'))); // '21300'
 */
export function openingAmount(coin: string, lowest: bigint): bigint {
  const dip = lowest < 0n ? -lowest : 0n;
  return roundUpNicely(dip + dip / 4n + usdWorth(coin, CUSHION_USD));
}

/**
 * The rules of a spot bill series: a bill moves its coin by size + fees; the opening bills (at
 * `openingAt`) carry the opening balance; every bill's `balance` is the running balance.
 *
 * @example
 * new BalancedSeries(spotBillRules(openingAt));
 */
export function spotBillRules(openingAt: number): BalanceRules<SpotBill> {
  return {
    movementOf: (b) => ({ coin: b.coin, delta: units(b.size) + units(b.fees) }),
    openingAt,
    openingCoins,
    openingFor: openingAmount,
    complete: (b, balance, opening) => ({ ...b, size: opening === undefined ? b.size : unitsText(opening), balance: unitsText(balance) }),
  };
}

/**
 * The opening deposit of a coin: an on-chain deposit at the world's first day whose size is the
 * spot wallet's opening balance (`size`, decided by the bill series' first pass).
 *
 * @example
 * openingDeposit('USDT', () => '21300', uid)(id, openingAt).size; // '21300'
 */
export function openingDeposit(coin: string, size: () => string, uid: string): (id: bigint, time: number) => DepositRecord {
  return (id, time) => ({
    orderId: id.toString(), tradeId: id.toString(16).padStart(64, '0'), coin, type: 'deposit', dest: 'on_chain', size: size(),
    status: 'success', fromAddress: 'opening balance', toAddress: uid, chain: '', cTime: String(time), uTime: String(time),
  });
}

/**
 * The opening spot bill of a coin; its size is filled in by the bill series.
 *
 * @example
 * openingBill('BTC')(id, openingAt).businessType; // 'deposit'
 */
export function openingBill(coin: string): (id: bigint, time: number) => SpotBill {
  return (id, time) => ({ billId: id.toString(), coin, groupType: 'deposit', businessType: 'deposit', size: '0', balance: '0', fees: '0', cTime: String(time) });
}

export { units, unitsText };

/** The futures and margin openings sit a millisecond after the spot ones: they are paid from spot. */
export const WALLET_OPENING_DELAY_MS = 1;

/**
 * The rules of a futures bill series (one product type): a bill moves its coin by amount + fee
 * (feeByCoupon is paid by a coupon, not the balance), as the ledger reads it; `balance` is the
 * running balance of the coin.
 *
 * @example
 * new BalancedSeries(futuresBillRules(openingAt + 1, ['USDT']));
 */
export function futuresBillRules(openingAt: number, coins: readonly string[]): BalanceRules<FuturesBill> {
  return {
    movementOf: (b) => ({ coin: b.coin, delta: units(b.amount) + units(b.fee) }),
    openingAt,
    openingCoins: coins,
    openingFor: openingAmount,
    complete: (b, balance) => ({ ...b, balance: unitsText(balance) }),
  };
}

const marginIn: ReadonlySet<string> = new Set(['transfer_in', 'borrow', 'compensate', 'deal_in', 'exchange_in']);
const marginOut: ReadonlySet<string> = new Set(['transfer_out', 'repay', 'interest_repay', 'liquidation_fee', 'confiscated', 'deal_out', 'exchange_out']);

/**
 * The rules of a margin record series (crossed or isolated): the amount's sign comes from the
 * type, as the ledger reads it, and a fee is always a charge; `total` is the running balance
 * of the coin in that margin wallet (borrowed coins included).
 *
 * @example
 * new BalancedSeries(marginRecordRules(openingAt + 1));
 */
export function marginRecordRules(openingAt: number): BalanceRules<MarginRecord> {
  return {
    movementOf: (r) => {
      const a = units(r.amount);
      const amount = marginIn.has(r.marginTaxType) ? (a < 0n ? -a : a) : marginOut.has(r.marginTaxType) ? (a < 0n ? a : -a) : a;
      const fee = units(r.fee);
      return { coin: r.coin, delta: amount - (fee < 0n ? -fee : fee) };
    },
    openingAt,
    openingCoins: marginCoins,
    openingFor: openingAmount,
    complete: (r, balance) => ({ ...r, total: unitsText(balance) }),
  };
}

/** The coins a margin wallet opens with. */
export const marginCoins: readonly string[] = ['USDT', 'BTC', 'ETH'];
