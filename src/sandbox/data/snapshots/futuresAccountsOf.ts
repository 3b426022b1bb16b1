import type { ProductType } from '../../../api/endpoints.js';
import type { FuturesAccount } from '../../../api/records/mix.js';
import { marginCoinsOf } from '../catalog.js';
import { decimalText } from '../decimalText.js';
import { hashKey, recordRng } from '../rng.js';

/**
 * Futures accounts of a product type (E14), one per margin coin, with the spec's own spelling
 * `unionTotalMagin`. The copy trader's COIN-FUTURES BTC account carries `"111,1"` there, the
 * garbage value an official example shows, so clients learn to flag it.
 *
 * @example
 * futuresAccountsOf(1, '2000000001', 'USDT-FUTURES', false);
 */
export function futuresAccountsOf(seed: number, uid: string, productType: ProductType, garbage: boolean): FuturesAccount[] {
  return marginCoinsOf(productType).map((coin, k): FuturesAccount => {
    const r = recordRng(hashKey(seed, uid, 'futuresAccounts', productType), k);
    const places = coin.endsWith('BTC') || coin.endsWith('ETH') ? 8 : 4;
    const available = decimalText(r.range(0, 900_000_000), places);
    const locked = decimalText(r.range(0, 9_000_000), places);
    const upl = decimalText(r.range(-9_000_000, 9_000_000), places);
    const union = k === 0 && productType === 'USDT-FUTURES';
    return {
      marginCoin: coin, locked, available, crossedMaxAvailable: available, isolatedMaxAvailable: available,
      maxTransferOut: available, accountEquity: available, usdtEquity: decimalText(r.range(0, 900_000_000), 4),
      btcEquity: decimalText(r.range(0, 90_000_000), 8), crossedRiskRate: '0', unrealizedPL: upl,
      coupon: k === 0 ? decimalText(r.range(0, 100_000), 4) : '0', isolatedMargin: locked, crossedMargin: '0',
      crossedUnrealizedPL: '0', isolatedUnrealizedPL: upl, assetMode: union ? 'union' : 'single',
      unionTotalMagin: garbage && k === 0 ? '111,1' : decimalText(r.range(0, 900_000_000), 4),
      unionAvailable: decimalText(r.range(0, 900_000_000), 4), unionMm: decimalText(r.range(0, 9_000_000), 4),
      assetList: [{ coin, balance: available }],
    };
  });
}
