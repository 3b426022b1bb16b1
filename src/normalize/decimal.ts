import decimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships ESM with only a default export but CommonJS-style typings; this cast lines
// the two up under NodeNext. The only import of decimal.js in the tax path (src/sandbox, the
// exchange's twin, keeps the exchange's own default settings).
const Decimal = decimalModule as unknown as typeof DecimalClass;

// Both are private clones, so no other module's Decimal.set can change their rounding; toFixed()
// never writes exponent notation; ties round half to even.
const common = { rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 } as const;

/**
 * The one place tradeledger configures decimal.js: the two precisions its TypeScript computes
 * amounts in. This one is for amounts as they come from the wire (normalize's sums and signs of
 * fees): 4000 significant digits, far beyond any exchange amount (inputs are capped at
 * |exponent| <= 1000 by toDecimalString), so additions and subtractions are exact.
 *
 * @example
 * new ExactDecimal('-8.9E-8').abs().toFixed(); // '0.000000089'
 */
export const ExactDecimal = Decimal.clone({ precision: 4000, ...common });
export type ExactDecimal = InstanceType<typeof ExactDecimal>;

/**
 * The gains engine's decimal (src/gains/gainsDecimal.ts has its rounding helpers): 60
 * significant digits, so that every sum and difference of the engine is exact (values up to
 * 10^15 with up to 45 decimals; exchange amounts have at most 18 and fiat values fewer), while a
 * pool division stays short; ExactDecimal's 4000 digits would make every pro-rata share
 * thousands of digits long.
 *
 * @example
 * new GainsDecimal('1').div(3).toFixed(); // '0.333333333333333333333333333333333333333333333333333333333333'
 */
export const GainsDecimal = Decimal.clone({ precision: 60, ...common });
export type GainsDecimal = InstanceType<typeof GainsDecimal>;
