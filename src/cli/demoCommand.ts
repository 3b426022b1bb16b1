import { Command } from 'commander';
import { TradeledgerError } from '../errors.js';

/** Placeholder until the demo command lands; it says so plainly instead of pretending. */
export function demoCommand(_setExit: (code: number) => void): Command {
  return new Command('demo').description('(not built yet)').action(() => {
    throw new TradeledgerError('NOT_BUILT', 'the demo command is not built yet', { kind: 'config' });
  });
}
