import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the report command lands; it says so plainly instead of pretending. */
export function reportCommand(_setExit: (code: number) => void): Command {
  return new Command('report').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the report command is not built yet', { kind: 'config' });
  });
}
