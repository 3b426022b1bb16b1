import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the sync command lands; it says so plainly instead of pretending. */
export function syncCommand(_setExit: (code: number) => void): Command {
  return new Command('sync').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the sync command is not built yet', { kind: 'config' });
  });
}
