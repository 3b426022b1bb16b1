import { decimalText } from '../decimalText.js';
import { priceMantissa, spotMarket } from '../catalog.js';
import type { Rng } from '../rng.js';
import { abs, div, fixed, mul, mulShift, roundTo, scaled, type Scaled } from '../scaledDecimal.js';

const bgb = spotMarket('BGBUSDT');

export interface MarketLike { basePrice: number; pricePlace: number; quote: string }

/**
 * A limit price near the market at time t, as text at the market's price precision.
 *
 * @example
 * priceNear(spotMarket('BTCUSDT')!, t, rng); // '70123.45'
 */
export function priceNear(m: MarketLike, t: number, rng: Rng, spreadPerMille = 20): string {
  const pm = priceMantissa(m, t);
  return decimalText(Math.max(1, Math.round((pm * (1000 + rng.range(-spreadPerMille, spreadPerMille))) / 1000)), m.pricePlace);
}

/**
 * An order quantity (base coin) worth roughly 10-5000 quote units at time t; one in ten is a
 * dust-sized order, which is where exponent-notation fees come from.
 *
 * @example
 * quantityNear(spotMarket('BTCUSDT')!, 6, t, rng); // '0.012345'
 */
export function quantityNear(m: MarketLike, qtyPlace: number, t: number, rng: Rng): string {
  if (rng.chance(0.1)) return decimalText(rng.range(1, 99), qtyPlace);
  const notional = rng.range(10, 5000) * (m.quote === 'BTC' ? 0.000_015 : 1);
  const price = priceMantissa(m, t) / 10 ** m.pricePlace;
  return decimalText(Math.max(1, Math.round((notional * 10 ** qtyPlace) / price)), qtyPlace);
}

/**
 * A fraction of a decimal text, rounded down to `places`.
 *
 * @example
 * part('1.5', 500, 2); // '0.75'
 */
export function part(amount: string, perMille: number, places: number): string {
  return fixed(roundTo(mulShift(scaled(amount), perMille, 3), places, true), places);
}

/**
 * Fee at `rate` of an amount, negative (money leaving), to 10 places without trailing zeros.
 *
 * @example
 * feeOf('200', '0.001'); // '-0.2'
 */
export function feeOf(amount: string, rate: string): string {
  const f = roundTo(mul(scaled(amount), scaled(rate)), 10);
  return f.m === 0n ? '0' : fixed({ m: -f.m, s: f.s });
}

/**
 * The value of a fee in platform-coin units (positive), given its value in the quote coin at time t.
 *
 * @example
 * inPlatformCoin('-0.2', t); // '0.16666667' at a BGB price of 1.2
 */
export function inPlatformCoin(quoteValue: string, t: number): string {
  const price: Scaled = bgb === undefined ? { m: 1n, s: 0 } : { m: BigInt(priceMantissa(bgb, t)), s: bgb.pricePlace };
  return fixed(roundTo(div(abs(scaled(quoteValue)), price), 8));
}

/**
 * A wallet amount of `coin` (6 decimals) worth between `minUsd` and `maxUsd` at time t: deposits,
 * withdrawals and transfers move sums a person would, whatever the coin's price.
 *
 * @example
 * coinAmount('BTC', t, rng, 100, 5000); // e.g. '0.034567'
 */
export function coinAmount(coin: string, t: number, rng: Rng, minUsd: number, maxUsd: number, places = 6): string {
  return usdIn(coin, rng.range(minUsd * 100, maxUsd * 100) / 100, t, places);
}

/**
 * `usd` dollars (a generated figure, never a balance) in `coin` at time t, as text at `places`;
 * demo coins (SBTC, SUSDT) are priced as the coin they imitate.
 *
 * @example
 * usdIn('SBTC', 650, t, 8); // about '0.01'
 */
export function usdIn(coin: string, usd: number, t: number, places: number): string {
  const plain = /^S[A-Z]{3,}$/.test(coin) && coin !== 'SOL' ? coin.slice(1) : coin;
  const m = plain === 'USDT' || plain === 'USDC' || plain === 'USD' ? undefined : spotMarket(`${plain}USDT`);
  const price = m === undefined ? 1 : priceMantissa(m, t) / 10 ** m.pricePlace;
  const mantissa = Math.round((Math.abs(usd) * 10 ** places) / price);
  return decimalText((usd < 0 ? -1 : 1) * Math.max(1, mantissa), places);
}
