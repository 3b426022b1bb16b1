import { errorMessage, type ErrorCode } from '../../../api/errorCodes.js';
import { WorldError } from '../../world.js';

/**
 * Throws the exchange's error for `code`, its `{0}` filled with `arg`.
 *
 * @example
 * fail('40019', 'symbol'); // throws WorldError 40019 'Parameter symbol cannot be empty'
 */
export function fail(code: ErrorCode, arg = ''): never {
  throw new WorldError(code, errorMessage(code, arg));
}

/**
 * The field's value, or 40019 "Parameter X cannot be empty".
 *
 * @example
 * required({ symbol: 'BTCUSDT' }, 'symbol'); // 'BTCUSDT'
 */
export function required(input: Record<string, string | undefined>, field: string): string {
  const v = input[field];
  if (v === undefined || v === '') fail('40019', field);
  return v;
}

/**
 * The value if it is one of `allowed`, else 40017 naming the field and the allowed values.
 *
 * @example
 * oneOf('buy', 'side', ['buy', 'sell'] as const); // 'buy'
 */
export function oneOf<T extends string>(value: string, field: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) fail('40017', `${field}: '${value}' is not one of ${allowed.join(', ')}`);
  return value as T;
}

/**
 * A positive plain decimal (no sign, no exponent), else 40017.
 *
 * @example
 * positiveDecimal('0.01', 'size'); // '0.01'; '-1' throws 40017
 */
export function positiveDecimal(value: string, field: string): string {
  if (!/^\d{1,20}(\.\d{1,20})?$/.test(value) || /^0*(\.0*)?$/.test(value)) fail('40017', `${field}: '${value}' must be a positive decimal number`);
  return value;
}
