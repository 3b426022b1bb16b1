import { demoProductTypes, productTypes, type ProductType } from '../../../api/endpoints.js';
import type { ContractConfig } from '../../../api/records/mix.js';
import { futuresMarkets } from '../catalog.js';
import { decimalText } from '../decimalText.js';

const known: readonly string[] = [...productTypes, ...demoProductTypes];

/**
 * Contract configuration (E2) of a product type, in either case (`susdt-futures` or
 * `SUSDT-FUTURES`); demo types list S-prefixed symbols and coins. Unknown types get [].
 *
 * @example
 * contractsOf('susdt-futures')[0]?.symbol; // 'SBTCSUSDT'
 */
export function contractsOf(productType: string): ContractConfig[] {
  const pt = productType.toUpperCase();
  if (!known.includes(pt)) return [];
  return futuresMarkets[pt as ProductType].map((m) => ({
    baseCoin: m.base, buyLimitPriceRatio: '0.01', feeRateUpRatio: '0.005', limitOpenTime: '-1', maintainTime: '',
    makerFeeRate: '0.0002', minTradeNum: decimalText(1, m.volumePlace),
    offTime: '-1', openCostUpRatio: '0.01', priceEndStep: '1', pricePlace: String(m.pricePlace), quoteCoin: m.quote,
    sellLimitPriceRatio: '0.01', sizeMultiplier: decimalText(1, m.volumePlace), supportMarginCoins: [...m.marginCoins],
    symbol: m.symbol, symbolStatus: 'normal', symbolType: 'perpetual', takerFeeRate: '0.0006',
    volumePlace: String(m.volumePlace), deliveryTime: '', deliveryStartTime: '', launchTime: '', fundInterval: '8',
    minLever: '1', maxLever: '125', posLimit: '0.05',
  }));
}
