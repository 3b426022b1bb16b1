import { demoCoins, demoProductTypes, productTypes, type ProductType } from '../../api/endpoints.js';
import { ApiFailure } from './ApiFailure.js';
import type { RequestContext } from './RequestContext.js';

const allProductTypes: readonly string[] = [...productTypes, ...demoProductTypes];
const demoSymbol = /^S[A-Z0-9]+S(USDT|USDC|USD|BTC|ETH|EOS|PERP)$/;

/** Demo symbols carry an S before each coin: SBTCSUSDT (spec §4 demo rules). */
export function isDemoSymbol(symbol: string): boolean {
  return demoSymbol.test(symbol);
}

export function isDemoCoin(coin: string): boolean {
  return (demoCoins as readonly string[]).includes(coin);
}

/**
 * Reads `productType` (case-insensitive, as E2 shows it in lower case) and enforces the demo
 * rules: a demo key must use a demo product type and a live key a live one (40017).
 *
 * @example
 * const pt = readProductType(ctx); // 'USDT-FUTURES'
 */
export function readProductType(ctx: RequestContext): ProductType {
  const raw = ctx.params.required('productType');
  const upper = raw.toUpperCase();
  if (!allProductTypes.includes(upper)) {
    throw ApiFailure.of('40017', `productType must be one of ${allProductTypes.join(', ')} (got ${raw})`);
  }
  const demoType = (demoProductTypes as readonly string[]).includes(upper);
  if (ctx.caller && ctx.caller.demo !== demoType) {
    throw ApiFailure.of('40017', ctx.caller.demo
      ? `productType ${raw} is a live product type; a demo key uses ${demoProductTypes.join(', ')}`
      : `productType ${raw} is a demo product type; a live key uses ${productTypes.join(', ')}`);
  }
  return upper as ProductType;
}

/**
 * Refuses a symbol or coin from the other environment than the product type: a demo symbol with
 * a live coin, or the reverse, is the spec's "mismatched pair" error (40017).
 *
 * @example
 * checkDemoPair('SUSDT-FUTURES', { symbol: 'SBTCSUSDT', marginCoin: 'USDT' }); // throws 40017
 */
export function checkDemoPair(productType: ProductType, fields: Record<string, string | undefined>): void {
  const demo = (demoProductTypes as readonly string[]).includes(productType);
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // Coins and symbols are upper case on the wire (E12/E16: "marginCoin, capitalized").
    if (value !== value.toUpperCase()) throw ApiFailure.of('40017', `${name} must be upper case (got ${value}, use ${value.toUpperCase()})`);
    const isDemo = name === 'symbol' ? isDemoSymbol(value) : isDemoCoin(value);
    if (isDemo !== demo) {
      throw ApiFailure.of('40017', `${name} ${value} does not match productType ${productType}: ${demo
        ? 'demo trading uses S-prefixed coins and symbols (SUSDT, SBTCSUSDT, SBTCSPERP)'
        : 'S-prefixed demo coins and symbols need a demo key and a demo product type'}`);
    }
  }
}
