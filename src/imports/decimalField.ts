import type { FilePlace } from './badInput.js';
import { badInput, shown } from './badInput.js';

const DECIMAL = /^\d+(\.\d+)?$|^\.\d+$/;
// Far beyond any amount or rate (the whole world's money has 15 digits before the point), far
// inside PostgreSQL's numeric: a longer number is a broken file, refused with its line.
const MAX_INTEGER_DIGITS = 30;
const MAX_FRACTION_DIGITS = 30;

// What a number that is not a plain decimal most likely is, said as its fix: a file saved by a
// spreadsheet in another locale writes decimal commas or thousands separators, and one whose cells
// were not formatted as numbers writes exponents (1E-08). Undefined for any other shape.
function shapeHint(v: string): string | undefined {
  if (/^[+-]?[\d.,]+$/.test(v) && v.includes(',')) {
    return 'Write numbers with a point for the decimals and no thousands separators (1234.5, not 1,234.5 or 1234,5); a spreadsheet saved in another language writes commas: save the file with the point as the decimal separator.';
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(v)) {
    return 'Write the number in full (0.00000001, not 1E-08): a spreadsheet writes exponents for cells not formatted as numbers; format the column as a number with enough decimals and save again.';
  }
  return undefined;
}

/**
 * A non-negative decimal field kept exact (as normalised text for a numeric column). Thousands
 * separators, signs, exponents and more than 30 digits before or after the point are refused:
 * a tax file must not be guessed at.
 *
 * @example
 * decimalField('0.50', place, 'Sent Amount'); // '0.5'
 */
export function decimalField(value: string, where: FilePlace | (() => FilePlace), hint: string): string {
  const v = value.trim();
  // The place is made only for a refusal (a line's place is an object per field otherwise).
  const place = (): FilePlace => (typeof where === 'function' ? where() : where);
  if (v.startsWith('-') && DECIMAL.test(v.slice(1))) throw badInput(place(), `${shown(v)} is negative`, hint);
  if (!DECIMAL.test(v)) throw badInput(place(), `${shown(v)} is not a decimal number`, shapeHint(v) ?? hint);
  const point = v.indexOf('.');
  const integer = (point < 0 ? v : v.slice(0, point)).replace(/^0+/, '');
  const fraction = point < 0 ? '' : v.slice(point + 1).replace(/0+$/, '');
  if (integer.length > MAX_INTEGER_DIGITS || fraction.length > MAX_FRACTION_DIGITS) {
    throw badInput(place(), `${shown(v)} has more than ${MAX_INTEGER_DIGITS} digits before or after the point`, `${hint} Check the column: no real amount has that many digits.`);
  }
  // The exact value in its shortest form, as decimal.js's toFixed() writes it: '0.50' -> '0.5'.
  return `${integer || '0'}${fraction ? `.${fraction}` : ''}`;
}
