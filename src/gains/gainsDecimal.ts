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

/**
 * A fiat figure to the penny, half up, for text a person reads (summary.txt, the CLI's and the
 * demo's lines); files that feed other figures keep the exact value.
 *
 * @example
 * toPenny('313636.3636'); // '313636.36'
 */
export function toPenny(value: string | number | GainsDecimal): string {
  return new GainsDecimal(value).toFixed(2, GainsDecimal.ROUND_HALF_UP);
}

const SUM_CHUNK = 4096;

/**
 * The sum of many decimals, rounded once at the end (decimal.js `sum` adds without rounding each
 * intermediate): the same exact total as adding one by one at this precision, for a third of the
 * work, which is what the UK matcher's per-day totals spend most of their time on. Chunked so a
 * day of a million rows does not overflow the argument list.
 *
 * @example
 * sumOf([new GainsDecimal('0.1'), new GainsDecimal('0.2')]).toFixed(); // '0.3'
 */
export function sumOf(values: readonly GainsDecimal[]): GainsDecimal {
  if (values.length === 0) return ZERO;
  if (values.length === 1) return values[0]!;
  if (values.length <= SUM_CHUNK) return GainsDecimal.sum(...values);
  const partials: GainsDecimal[] = [];
  for (let i = 0; i < values.length; i += SUM_CHUNK) partials.push(GainsDecimal.sum(...values.slice(i, i + SUM_CHUNK)));
  return sumOf(partials);
}
