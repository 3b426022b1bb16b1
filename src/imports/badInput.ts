import { TradeledgerError } from '../errors.js';

/** Where in a file a problem is: 1-based line, and the column's number and header name if known. */
export interface FilePlace {
  readonly file: string;
  readonly line: number;
  readonly column?: { readonly index: number; readonly name: string };
}

/**
 * The one error a file import refuses with: it names the file, line and column, and says what
 * to do. Nothing of the file has been stored when it is thrown.
 *
 * @example
 * throw badInput({ file: 'rates.csv', line: 7, column: { index: 3, name: 'JPY' } }, "'-1' is negative", 'ECB rates are positive');
 */
export function badInput(place: FilePlace, problem: string, hint: string): TradeledgerError {
  const where = `${place.file} line ${place.line}${place.column ? `, column ${place.column.index} (${place.column.name})` : ''}`;
  return new TradeledgerError('IMPORT_BAD_INPUT', `${where}: ${problem}; nothing was imported`, {
    kind: 'config', hint, details: { file: place.file, line: place.line, column: place.column?.name },
  });
}

/**
 * A value as a message quotes it: short values whole, long ones cut, with their length, so a
 * 140,000-digit amount gives a readable one-line error.
 *
 * @example
 * shown('1'.repeat(140_000)); // "'11111111111111111111…' (140000 characters)"
 */
export function shown(value: string): string {
  return value.length <= 40 ? `'${value}'` : `'${value.slice(0, 20)}…' (${value.length} characters)`;
}
