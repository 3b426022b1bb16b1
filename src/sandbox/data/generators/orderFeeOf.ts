import { fixed, scaled } from '../scaledDecimal.js';

/** What a spot order's feeDetail text says was paid, as plain decimal strings. */
export interface OrderFee {
  /** True when the platform coin paid (all or part of) the fee. */
  platform: boolean;
  /** Platform-coin amount deducted ('0' when none). */
  deducted: string;
  /** Fee payable in the received coin. */
  total: string;
}

// decimal.js's `new Decimal(text).toFixed()`: texts already in that form (the usual case) as they are.
const normal = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
const plain = (text: string | undefined): string => (text === undefined ? '0' : normal.test(text) && text !== '-0' ? text : fixed(scaled(text)));

/**
 * Reads the fee of a generated spot order back from its feeDetail text (any form, even the
 * deliberately truncated one), so its fill can report the same fee.
 *
 * @example
 * orderFeeOf('{"newFees":{"c":0,"d":0,"deduction":false,"r":-0.1,"t":-0.1,"totalDeductionFee":0}}');
 * // { platform: false, deducted: '0', total: '-0.1' }
 */
export function orderFeeOf(feeDetail: string): OrderFee {
  const platform = feeDetail.includes('"deduction":true');
  const deducted = /"totalDeductionFee":(-?[\d.E-]+)/.exec(feeDetail)?.[1];
  const total = /"t":(-?[\d.E-]+)/.exec(feeDetail)?.[1] ?? /"totalFee":(-?[\d.E-]+)/.exec(feeDetail)?.[1];
  return { platform, deducted: platform ? plain(deducted) : '0', total: plain(total) };
}
