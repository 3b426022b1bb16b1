import { Decimal } from 'decimal.js';
import type { FilePlace } from './badInput.js';
import { badInput } from './badInput.js';

const DECIMAL = /^\d+(\.\d+)?$|^\.\d+$/;

/**
 * A non-negative decimal field kept exact (as normalised text for a numeric column). Thousands
 * separators, signs and exponents are refused: a tax file must not be guessed at.
 *
 * @example
 * decimalField('0.50', place, 'Sent Amount'); // '0.5'
 */
export function decimalField(value: string, place: FilePlace, hint: string): string {
  const v = value.trim();
  if (v.startsWith('-') && DECIMAL.test(v.slice(1))) throw badInput(place, `'${v}' is negative`, hint);
  if (!DECIMAL.test(v)) throw badInput(place, `'${v}' is not a decimal number`, hint);
  return new Decimal(v).toFixed();
}
