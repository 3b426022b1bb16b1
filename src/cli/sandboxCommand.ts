import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the sandbox command lands; it says so plainly instead of pretending. */
export function sandboxCommand(_setExit: (code: number) => void): Command {
  return new Command('sandbox').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the sandbox command is not built yet', { kind: 'config' });
  });
}
