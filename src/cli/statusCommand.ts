import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the status command lands; it says so plainly instead of pretending. */
export function statusCommand(_setExit: (code: number) => void): Command {
  return new Command('status').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the status command is not built yet', { kind: 'config' });
  });
}
