import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the db command lands; it says so plainly instead of pretending. */
export function dbCommand(_setExit: (code: number) => void): Command {
  return new Command('db').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the db command is not built yet', { kind: 'config' });
  });
}
