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
