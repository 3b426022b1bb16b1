import { Decimal } from 'decimal.js';
import type { ProductType } from '../../../api/endpoints.js';
import type { FuturesAccount } from '../../../api/records/mix.js';
import { marginCoinsOf } from '../catalog.js';
import { decimalText } from '../decimalText.js';
import { hashKey, recordRng } from '../rng.js';

/**
 * Futures accounts of a product type (E14), one per margin coin, with the spec's own spelling
 * `unionTotalMagin`. The wallet balance is `balanceOf(coin)`, the running balance of the
 * account's futures bills (so accountEquity - unrealizedPL is exactly what the bills sum to);
 * the open positions' unrealized PnL is a small share of it, the margin locked in them a part
 * of it. The copy trader's COIN-FUTURES BTC account carries `"111,1"` in unionTotalMagin, the
 * garbage value an official example shows, so clients learn to flag it.
 *
 * @example
 * futuresAccountsOf(1, '2000000001', 'USDT-FUTURES', false, () => '20400.5');
 */
export function futuresAccountsOf(seed: number, uid: string, productType: ProductType, garbage: boolean, balanceOf: (coin: string) => string): FuturesAccount[] {
  return marginCoinsOf(productType).map((coin, k): FuturesAccount => {
    const r = recordRng(hashKey(seed, uid, 'futuresAccounts', productType), k);
    const places = coin.endsWith('BTC') || coin.endsWith('ETH') ? 8 : 4;
    const balance = new Decimal(balanceOf(coin));
    const locked = balance.times(r.range(0, 300)).div(1000).toDecimalPlaces(places, Decimal.ROUND_DOWN);
    const upl = balance.times(r.range(-50, 50)).div(1000).toDecimalPlaces(places, Decimal.ROUND_DOWN);
    const available = balance.minus(locked).toFixed();
    const equity = balance.plus(upl).toFixed();
    const union = k === 0 && productType === 'USDT-FUTURES';
    return {
      marginCoin: coin, locked: locked.toFixed(), available, crossedMaxAvailable: available, isolatedMaxAvailable: available,
      maxTransferOut: available, accountEquity: equity, usdtEquity: decimalText(r.range(0, 900_000_000), 4),
      btcEquity: decimalText(r.range(0, 90_000_000), 8), crossedRiskRate: '0', unrealizedPL: upl.toFixed(),
      coupon: k === 0 ? decimalText(r.range(0, 100_000), 4) : '0', isolatedMargin: locked.toFixed(), crossedMargin: '0',
      crossedUnrealizedPL: '0', isolatedUnrealizedPL: upl.toFixed(), assetMode: union ? 'union' : 'single',
      unionTotalMagin: garbage && k === 0 ? '111,1' : decimalText(r.range(0, 900_000_000), 4),
      unionAvailable: decimalText(r.range(0, 900_000_000), 4), unionMm: decimalText(r.range(0, 9_000_000), 4),
      assetList: [{ coin, balance: balance.toFixed() }],
    };
  });
}
