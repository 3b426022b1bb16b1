import decimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships ESM with only a default export but CommonJS-style typings; this cast lines
// the two up under NodeNext.
const Decimal = decimalModule as unknown as typeof DecimalClass;

/**
 * The one decimal.js configuration of src/normalize: a private clone, so no other module's
 * settings can change our rounding. Its precision is far beyond any exchange amount (inputs are
 * capped at |exponent| <= 1000 by toDecimalString), so additions and subtractions are exact, and
 * toFixed() never writes exponent notation.
 *
 * @example
 * new ExactDecimal('-8.9E-8').abs().toFixed(); // '0.000000089'
 */
export const ExactDecimal = Decimal.clone({ precision: 4000, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
export type ExactDecimal = InstanceType<typeof ExactDecimal>;
