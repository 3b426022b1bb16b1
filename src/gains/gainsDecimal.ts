import { GainsDecimal } from '../normalize/decimal.js';

/**
 * The decimal type of the gains engine (configured, with the rest of decimal.js's settings, in
 * src/normalize/decimal.ts): 60 significant digits, so every sum and difference of the engine is
 * exact. The only rounding in the engine is a pro-rata share (cost x part / whole, proceeds x
 * part / whole), and it happens once, in {@link proRata}, at {@link SHARE_DECIMALS} decimal
 * places, half to even; the remainder stays in the pool, lot or day it was taken from. So for
 * every run, what was paid for the coins equals the cost matched plus the cost still held, to the
 * last digit, and proceeds - gain + cost still held = what was paid
 * (test/gains/exactness.test.ts checks it for every rule set).
 *
 * @example
 * proRata(new GainsDecimal('1'), new GainsDecimal('1'), new GainsDecimal('3')).toFixed(); // '0.333333333333'
 */
export { GainsDecimal };

/**
 * Decimal places of a pro-rata share of a cost or of proceeds: 12, far below any currency's
 * smallest unit, and short enough to read. Documented in docs/gains.md ("Exact sums").
 */
export const SHARE_DECIMALS = 12;

/**
 * `total x part / whole`, rounded once to {@link SHARE_DECIMALS} places (half to even). The caller
 * takes the share out of what it was taken from, so nothing is lost to the rounding.
 *
 * @example
 * proRata(new GainsDecimal('6280'), new GainsDecimal('700'), new GainsDecimal('1500')).toFixed(); // '2930.666666666667'
 */
export function proRata(total: GainsDecimal, part: GainsDecimal, whole: GainsDecimal): GainsDecimal {
  return total.times(part).div(whole).toDecimalPlaces(SHARE_DECIMALS, GainsDecimal.ROUND_HALF_EVEN);
}

/** Zero, shared (decimal.js values are immutable). */
export const ZERO = new GainsDecimal(0);

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
