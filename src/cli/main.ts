import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { TradeledgerError, exitCodes } from '../errors.js';
import { sandboxCommand } from './sandboxCommand.js';
import { dbCommand } from './dbCommand.js';
import { syncCommand } from './syncCommand.js';
import { statusCommand } from './statusCommand.js';
import { reportCommand } from './reportCommand.js';
import { demoCommand } from './demoCommand.js';
import { gainsCommand } from './gainsCommand.js';
import { importCommand } from './importCommand.js';

/**
 * The CLI entry: parses argv, runs one command, and turns every failure into a message and an
 * exit code (see `exitCodes`). Never prints a stack trace for a known error.
 *
 * @example
 * process.exitCode = await main(['db', 'url']);
 */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = exitCodes.ok;
  const program = new Command('tradeledger')
    .description('Copy an exchange account\'s full history into PostgreSQL and write tax and ledger CSVs.')
    .version(packageVersion(), '-V, --version', 'print the tradeledger version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const setExit = (code: number) => { exitCode = code; };
  for (const make of [demoCommand, syncCommand, statusCommand, reportCommand, dbCommand, sandboxCommand, importCommand]) {
    program.addCommand(make(setExit));
  }
  program.addCommand(gainsCommand(setExit));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    return reportError(err);
  }
}

// The version in package.json, the one npm installed.
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return exitCodes.ok;
    return exitCodes.configOrAuth;
  }
  if (err instanceof TradeledgerError) {
    process.stderr.write(`tradeledger: ${err.message}\n`);
    if (err.hint) process.stderr.write(`  fix: ${err.hint}\n`);
    return err.kind === 'config' || err.kind === 'auth' ? exitCodes.configOrAuth : exitCodes.internal;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`tradeledger: unexpected error: ${message}\n  This is a bug; please report it with the command you ran. Set TRADELEDGER_DEBUG=1 for the stack.\n`);
  if (process.env.TRADELEDGER_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  return exitCodes.internal;
}
