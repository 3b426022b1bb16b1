import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { TradeledgerError, exitCodeOf, exitCodes } from '../errors.js';
import { isConnectionProblem } from '../db/connectionProblem.js';
import { sandboxCommand } from './sandboxCommand.js';
import { dbCommand } from './dbCommand.js';
import { syncCommand } from './syncCommand.js';
import { statusCommand } from './statusCommand.js';
import { reportCommand } from './reportCommand.js';
import { demoCommand } from './demoCommand.js';
import { serveCommand } from './serveCommand.js';
import { usersCommand } from './usersCommand.js';
import { workerCommand } from './workerCommand.js';
import { enqueueCommand } from './enqueueCommand.js';
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
  for (const make of [demoCommand, syncCommand, statusCommand, reportCommand, gainsCommand, importCommand, dbCommand, sandboxCommand,
    serveCommand, usersCommand, workerCommand, enqueueCommand]) {
    program.addCommand(make(setExit));
  }
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
    return exitCodeOf(err.kind);
  }
  if (isConnectionProblem(err)) {
    // A raw pg error that escaped a command: still a database problem, not a bug.
    const e = err as { code?: string; message?: string };
    process.stderr.write(`tradeledger: lost the connection to PostgreSQL (${e.code ? `${e.code} ` : ''}${e.message ?? String(err)})\n  fix: check that PostgreSQL is running (\`tradeledger db status\`), then run the command again\n`);
    return exitCodes.database;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`tradeledger: unexpected error: ${message}\n  This is a bug; please report it with the command you ran. Set TRADELEDGER_DEBUG=1 for the stack.\n`);
  if (process.env.TRADELEDGER_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  return exitCodes.internal;
}
