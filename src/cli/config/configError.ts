import { TradeledgerError } from '../../errors.js';

/**
 * A configuration error that names the file (or variable), the key and the fix.
 *
 * @example
 * throw configError('sync.json', 'accounts[0].secretEnv', 'variable MAIN_SECRET is not set', 'export MAIN_SECRET=... or point secretFile at a file');
 */
export function configError(source: string, key: string, problem: string, fix: string): TradeledgerError {
  return new TradeledgerError('CONFIG_INVALID', `${source}: ${key}: ${problem}`, { kind: 'config', hint: fix, details: { source, key } });
}
