import { TradeledgerError } from '../../src/errors.js';

/**
 * The TradeledgerError a call throws (anything else is rethrown; no throw fails the test).
 *
 * @example
 * expect(failure(() => reportPeriod({ year: 'x', tz: 'UTC' })).code).toBe('REPORT_BAD_FLAG');
 */
export function failure(fn: () => unknown): TradeledgerError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TradeledgerError) return err;
    throw err;
  }
  throw new Error('expected a TradeledgerError');
}

/**
 * The TradeledgerError an async call rejects with (anything else is rethrown; resolving fails the test).
 *
 * @example
 * expect((await failureOf(() => addReader(client, 'X', pw))).code).toBe('DB_READER');
 */
export async function failureOf(fn: () => Promise<unknown>): Promise<TradeledgerError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof TradeledgerError) return err;
    throw err;
  }
  throw new Error('expected a TradeledgerError');
}
