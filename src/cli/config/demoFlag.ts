import { configError } from './configError.js';

/**
 * Reads TRADELEDGER_DEMO: 1/true (a demo-trading key) or 0/false/unset (a live key). Anything
 * else is refused rather than guessed, since a wrong guess syncs the wrong account.
 *
 * @example
 * demoFlag('1');     // true
 * demoFlag('maybe'); // throws: environment: TRADELEDGER_DEMO: "maybe" is neither 1/true nor 0/false
 */
export function demoFlag(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw configError('environment', 'TRADELEDGER_DEMO', `"${value}" is neither 1/true nor 0/false`,
    'export TRADELEDGER_DEMO=1 for a demo-trading key, TRADELEDGER_DEMO=0 (or unset it) for a live key');
}
