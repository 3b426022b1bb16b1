import type { ProductType } from '../../../api/endpoints.js';
import type { Position } from '../../../api/records/mix.js';
import { futuresMarkets, priceMantissa } from '../catalog.js';
import { decimalText, mulText } from '../decimalText.js';
import { hashKey, recordRng } from '../rng.js';

/**
 * Open positions of an account in a product type at time `now` (E12/E16), newest first: one per
 * market, hedge and one-way, isolated and crossed. Deterministic from the seed.
 *
 * @example
 * positionsOf(1, '2000000001', 'USDT-FUTURES', Date.now());
 */
export function positionsOf(seed: number, uid: string, productType: ProductType, now: number): Position[] {
  const markets = futuresMarkets[productType] ?? [];
  return markets.map((m, k): Position => {
    const r = recordRng(hashKey(seed, uid, 'positions', productType), k);
    const hedge = k % 2 === 0;
    const holdSide = r.chance(0.5) ? 'long' : 'short';
    const mark = decimalText(priceMantissa(m, now), m.pricePlace);
    const open = decimalText(Math.round(priceMantissa(m, now - 86_400_000 * (k + 3)) * 1), m.pricePlace);
    const total = decimalText(r.range(1, 5000), m.volumePlace);
    const locked = k === 0 ? decimalText(1, m.volumePlace) : '0';
    const leverage = String(r.pick([5, 10, 20]));
    const cTime = now - 86_400_000 * (k + 3);
    return {
      symbol: m.symbol, marginCoin: m.marginCoins[0] ?? '', holdSide, openDelegateSize: '0',
      marginSize: mulText(total, open, 4), available: total, locked, total, leverage,
      achievedProfits: decimalText(r.range(-500_000, 500_000), 4), openPriceAvg: open,
      marginMode: k % 3 === 1 ? 'crossed' : 'isolated', posMode: hedge ? 'hedge_mode' : 'one_way_mode',
      unrealizedPL: decimalText(r.range(-900_000, 900_000), 4), liquidationPrice: k === 1 ? '0' : decimalText(Math.round(priceMantissa(m, now) / 2), m.pricePlace),
      keepMarginRate: '0.004', markPrice: mark, marginRatio: '0.0123', breakEvenPrice: open,
      totalFee: k === 0 ? '' : decimalText(-r.range(1, 90_000), 6), deductedFee: decimalText(r.range(1, 90_000), 6),
      assetMode: 'single', autoMargin: 'off', cTime: String(cTime), uTime: String(cTime + 60_000),
    };
  }).reverse();
}
