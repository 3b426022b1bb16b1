import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { TradeledgerError, exitCodeOf, exitCodes } from '../errors.js';
import { isConnectionProblem } from '../db/connectionProblem.js';

type MakeCommand = (setExit: (code: number) => void) => Command;

// Every command, in the order `--help` lists them, each loaded only when needed: `tradeledger sync`
// then loads the sync and not the portal, the sandbox, the reports or the gains engine (the whole
// CLI costs ~190 MB of resident memory before doing anything; the sync alone ~145 MB).
const commands: readonly (readonly [string, () => Promise<MakeCommand>])[] = [
  ['demo', async () => (await import('./demoCommand.js')).demoCommand],
  ['sync', async () => (await import('./syncCommand.js')).syncCommand],
  ['status', async () => (await import('./statusCommand.js')).statusCommand],
  ['report', async () => (await import('./reportCommand.js')).reportCommand],
  ['gains', async () => (await import('./gainsCommand.js')).gainsCommand],
  ['reconcile', async () => (await import('./reconcileCommand.js')).reconcileCommand],
  ['import', async () => (await import('./importCommand.js')).importCommand],
  ['db', async () => (await import('./dbCommand.js')).dbCommand],
  ['sandbox', async () => (await import('./sandboxCommand.js')).sandboxCommand],
  ['serve', async () => (await import('./serveCommand.js')).serveCommand],
  ['users', async () => (await import('./usersCommand.js')).usersCommand],
  ['worker', async () => (await import('./workerCommand.js')).workerCommand],
  ['enqueue', async () => (await import('./enqueueCommand.js')).enqueueCommand],
];

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
  try {
    // A named command loads alone; anything else (help, --version, a typo to suggest a fix for) loads them all.
    const named = commands.filter(([name]) => name === argv[0]);
    for (const [, load] of named.length === 1 ? named : commands) program.addCommand((await load())(setExit));
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
