/**
 * True for a number that lossless-json kept as its original text ({ isLosslessNumber, value }).
 *
 * @example
 * isNumberText(parse('1.10')); // true, and .value === '1.10'
 */
export function isNumberText(value: unknown): value is { isLosslessNumber: true; value: string } {
  return typeof value === 'object' && value !== null && 'isLosslessNumber' in value
    && typeof (value as { value?: unknown }).value === 'string';
}
