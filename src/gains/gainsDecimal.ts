import decimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

const Decimal = decimalModule as unknown as typeof DecimalClass;

/**
 * The decimal type of the gains engine: a private decimal.js clone with 40 significant digits.
 * Sums of exchange amounts and fiat values stay exact at that precision (18 decimals on values up
 * to 10^21); only a pro-rata share (cost x part / whole) is rounded, half to even, in its 40th
 * digit, far below a penny. normalize's ExactDecimal keeps 4000 digits, which would make every
 * pool division thousands of digits long.
 *
 * @example
 * new GainsDecimal('1000').times(1500).div(1600).toFixed(2); // '937.50'
 */
export const GainsDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
export type GainsDecimal = InstanceType<typeof GainsDecimal>;

/** Zero, shared (decimal.js values are immutable). */
export const ZERO = new GainsDecimal(0);

/** A decimal from a string, number-free input or an existing decimal. */
export function dec(value: string | GainsDecimal): GainsDecimal {
  return typeof value === 'string' ? new GainsDecimal(value) : value;
}
