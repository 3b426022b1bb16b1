import { Decimal } from 'decimal.js';
import { fixed, mul, roundTo, scaled } from './scaledDecimal.js';

/**
 * Writes an integer mantissa as a decimal string with `places` digits after the point, without
 * going through a float.
 *
 * @example
 * decimalText(12345n, 2); // '123.45'
 * decimalText(-5, 3);     // '-0.005'
 */
export function decimalText(mantissa: bigint | number, places: number): string {
  const m = BigInt(mantissa);
  const neg = m < 0n;
  const digits = (neg ? -m : m).toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return neg ? `-${text}` : text;
}

/**
 * Multiplies two decimal strings and rounds to `places` (half-up), as a string.
 *
 * @example
 * mulText('0.5', '99000', 8); // '49500.00000000'
 */
export function mulText(a: string, b: string, places: number): string {
  // Same as decimal.js's mul, toDecimalPlaces(places, ROUND_HALF_UP), toFixed(places); far cheaper.
  return fixed(roundTo(mul(scaled(a), scaled(b)), places), places);
}

/**
 * The text of a JSON number inside feeDetail: plain for ordinary amounts, exponent notation
 * (`-8.9E-8`) for tiny ones, as the exchange writes them.
 *
 * @example
 * feeNumberText('-0.000000089'); // '-8.9E-8'
 */
export function feeNumberText(value: string): string {
  // Character checks, not regular expressions: this runs for every number of every generated
  // feeDetail, and the usual value ('0', or already without trailing zeros) needs none of them.
  if (value === '0') return '0';
  const last = value.charCodeAt(value.length - 1);
  const first = value.charCodeAt(value.charCodeAt(0) === 45 ? 1 : 0);
  if (first >= 49 && first <= 57 && last !== 48 && last !== 46) return value;
  if (/^-?0*(\.0*)?$/.test(value)) return '0';
  if (/^-?0\.000000/.test(value)) return new Decimal(value).toExponential().replace('e', 'E').replace('E+', 'E');
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}
