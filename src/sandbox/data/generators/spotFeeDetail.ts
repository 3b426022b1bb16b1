import { feeNumberText } from '../decimalText.js';
import { platformCoin } from '../catalog.js';
import { fixed, mul, roundTo, scaled, sub, type Scaled } from '../scaledDecimal.js';

/** The feeDetail shapes the exchange has used over time (api-notes.md, Fees). */
export const modernFeeForms = ['newPlain', 'newPlatform', 'newCoupon', 'newInsufficient', 'newRebate', 'newOnly'] as const;
export const legacyFeeForms = ['legacyCoin', 'legacyPlatform', 'legacyKeyDiffers', 'legacyNestedNew'] as const;
export type FeeForm = (typeof modernFeeForms)[number] | (typeof legacyFeeForms)[number];

const n = feeNumberText;
const oneHalf: Scaled = { m: 5n, s: 1 };

/** decimal.js's `new Decimal(x).div(2).toDecimalPlaces(12).toFixed()` (halving is exact, so x * 0.5 is the same quotient). */
function halfOf(x: string): string {
  return fixed(roundTo(mul(scaled(x), oneHalf), 12));
}

/** What is left of the fee after its first half: `new Decimal(fee).minus(half).toFixed()`. */
function restOf(fee: string): string {
  return fixed(sub(scaled(fee), scaled(halfOf(fee))));
}

function newFees(c: string, d: string, r: string, t: string, deduction: boolean): string {
  return `{"c":${n(c)},"d":${n(d)},"deduction":${deduction},"r":${n(r)},"t":${n(t)},"totalDeductionFee":${n(d)}}`;
}

function coinEntry(key: string, feeCoin: string, deduction: boolean, deducted: string, total: string, nested?: string): string {
  const inner = nested === undefined ? '' : `,"newFees":${nested}`;
  return `"${key}":{"deduction":${deduction},"feeCoinCode":"${feeCoin}"${inner},"totalDeductionFee":${n(deducted)},"totalFee":${n(total)}}`;
}

/**
 * The JSON *text* of a spot order's feeDetail. `fee` is the fee payable in the received coin
 * (negative: money leaving); `platformFee` the same fee in platform-coin units (positive, as the
 * exchange writes platform-coin fees). Numbers are written as JSON numbers, tiny ones in exponent
 * notation.
 *
 * @example
 * spotFeeDetail('newPlain', 'USDT', '-0.1', '0.08'); // '{"newFees":{"c":0,"d":0,...,"t":-0.1,...}}'
 */
export function spotFeeDetail(form: FeeForm, coin: string, fee: string, platformFee: string): string {
  // No closures here: under tsx every closure created per record costs a __name call.
  switch (form) {
    case 'newOnly':
      return `{"newFees":${newFees('0', '0', fee, fee, false)}}`;
    case 'newPlain':
      return `{${coinEntry(coin, coin, false, '0', fee)},"newFees":${newFees('0', '0', fee, fee, false)}}`;
    case 'newPlatform':
      return `{${coinEntry(platformCoin, platformCoin, true, platformFee, platformFee)},"newFees":${newFees('0', platformFee, '0', fee, true)}}`;
    case 'newCoupon':
      return `{"newFees":${newFees(halfOf(fee), '0', restOf(fee), fee, false)}}`;
    case 'newInsufficient': {
      // The platform-coin balance covered half; the remainder r is paid in the received coin.
      const halfPlatform = halfOf(platformFee);
      return `{${coinEntry(platformCoin, platformCoin, true, halfPlatform, halfPlatform)},"newFees":${newFees('0', halfPlatform, restOf(fee), fee, true)}}`;
    }
    case 'newRebate': {
      const rebate = fee.replace(/^-/, '');
      return `{"newFees":${newFees('0', '0', rebate, rebate, false)}}`;
    }
    case 'legacyCoin':
      return `{${coinEntry(coin, coin, false, '0', fee)}}`;
    case 'legacyPlatform':
      return `{${coinEntry(platformCoin, platformCoin, true, platformFee, fee)}}`;
    case 'legacyKeyDiffers':
      return `{${coinEntry(platformCoin, coin, false, '0', fee)}}`;
    case 'legacyNestedNew':
      return `{${coinEntry(coin, coin, false, '0', fee, newFees('0', '0', fee, fee, false))}}`;
  }
}
