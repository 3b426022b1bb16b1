import { readFileSync } from 'node:fs';
import { Command, CommanderError, Help } from 'commander';
import { TradeledgerError, exitCodeOf, exitCodes } from '../errors.js';
import { isConnectionProblem, refusalError, tooManyConnections } from '../db/connectionProblem.js';
import { Interrupted } from './interrupt.js';

type MakeCommand = (setExit: (code: number) => void) => Command;

// Every command, in the order `--help` lists them, each loaded only when needed: `tradeledger sync`
// then loads the sync and not the portal, the sandbox, the reports or the gains engine (the whole
// CLI costs ~190 MB of resident memory before doing anything; the sync alone ~145 MB). The help
// line of each (its term and description) is here too, so that `--help`, a bare `tradeledger` and
// a typo load no command at all (loading them all cost ~1.6 s of CPU); test/cli/helpText.test.ts
// holds these lines equal to the commands' own.
interface CommandEntry { name: string; term: string; description: string; load: () => Promise<MakeCommand> }
export const commandEntries: readonly CommandEntry[] = [
  { name: 'demo', term: 'demo [options]', description: 'Try everything without an account: start the sandbox, sync all of it into the database, write this year\'s reports.', load: async () => (await import('./demoCommand.js')).demoCommand },
  { name: 'sync', term: 'sync [options]', description: 'Copy the accounts\' history into PostgreSQL, incrementally (resumes after any crash).', load: async () => (await import('./syncCommand.js')).syncCommand },
  { name: 'status', term: 'status [options]', description: 'Show per account and stream: the last run, the watermark, row counts, known history gaps and records still open.', load: async () => (await import('./statusCommand.js')).statusCommand },
  { name: 'report', term: 'report [options]', description: 'Write a period\'s ledger and tax CSVs (plus manifest.json) from the synced database.', load: async () => (await import('./reportCommand.js')).reportCommand },
  { name: 'gains', term: 'gains [options]', description: 'Compute a tax year\'s capital gains (lot matching per jurisdiction) and write gains.csv, income.csv, summaries and forms.', load: async () => (await import('./gainsCommand.js')).gainsCommand },
  { name: 'classify', term: 'classify', description: 'Correct a ledger row, audited: classify a deposit or withdrawal (gift, payment, income, lost, own wallet ...) or give it a price; undo, list.', load: async () => (await import('./classifyCommand.js')).classifyCommand },
  { name: 'reconcile', term: 'reconcile [options]', description: 'Check every balance against the exchange\'s own figure, and say why any differs.', load: async () => (await import('./reconcileCommand.js')).reconcileCommand },
  { name: 'import', term: 'import', description: 'Import files the exchange cannot know: FX rates, transactions from elsewhere.', load: async () => (await import('./importCommand.js')).importCommand },
  { name: 'db', term: 'db [options]', description: 'Manage the database: migrate, print its URL, show status, add analysts\' read-only logins, stop the embedded server.', load: async () => (await import('./dbCommand.js')).dbCommand },
  { name: 'sandbox', term: 'sandbox [options]', description: 'Run a local twin of the exchange V2 API (signed, rate-limited, paged, with fault injection). Prints one JSON line {baseUrl, accounts} on stdout, then serves until Ctrl-C.', load: async () => (await import('./sandboxCommand.js')).sandboxCommand },
  { name: 'serve', term: 'serve [options]', description: 'Start the accountants\' web portal (users: tradeledger users add).', load: async () => (await import('./serveCommand.js')).serveCommand },
  { name: 'users', term: 'users', description: 'Manage who may sign in to the portal (tradeledger serve).', load: async () => (await import('./usersCommand.js')).usersCommand },
  { name: 'worker', term: 'worker [options]', description: 'Run sync jobs (one account per job) from the database\'s job queue; run several, on several machines.', load: async () => (await import('./workerCommand.js')).workerCommand },
  { name: 'enqueue', term: 'enqueue [options]', description: 'Queue a sync job per account for `tradeledger worker` (a pending job is never doubled).', load: async () => (await import('./enqueueCommand.js')).enqueueCommand },
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
    // A named command (or `help <command>`) loads alone; anything else (help, --version, a typo to
    // suggest a fix for) gets each command's help line only.
    const named = commandEntries.find((c) => c.name === argv[0] || (argv[0] === 'help' && c.name === argv[1]));
    if (named) program.addCommand(exitOverrideAll((await named.load())(setExit)));
    else {
      const terms = new Map(commandEntries.map((c) => [c.name, c.term]));
      const plain = new Help();
      program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? plain.subcommandTerm(cmd) });
      for (const c of commandEntries) program.command(c.name).description(c.description);
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    return reportError(err);
  }
}

/**
 * A command and every subcommand of it report a usage error (an unknown option, a missing
 * argument) by throwing, so it ends with exit 2 like every other bad flag: commander's own
 * process.exit(1) said "internal error (a bug)" to a scheduler for `sync --bogus` (the README's
 * exit-code table; test/cli/usageErrors.test.ts).
 */
function exitOverrideAll(command: Command): Command {
  // and says where the usage is, as the top level does (commander copies neither to a command built apart)
  command.exitOverride().showHelpAfterError('(run with --help for usage)');
  for (const sub of command.commands) exitOverrideAll(sub);
  return command;
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
  if (err instanceof Interrupted) {
    // Ctrl-C or SIGTERM during a command that writes files (interrupt.ts): it took them back.
    process.stderr.write(`tradeledger: ${err.message}${err.signalName === 'SIGINT' ? ' (Ctrl-C)' : ''}; nothing of this run was kept: its unfinished files were removed and the folder is as it was\n`);
    return err.exitCode;
  }
  // A raw refusal by the server (read-only, no right, its own timeout): an operator's setting, not a bug.
  err = refusalError(err) ?? err;
  if (err instanceof TradeledgerError) {
    process.stderr.write(`tradeledger: ${err.message}\n`);
    if (err.hint) process.stderr.write(`  fix: ${err.hint}\n`);
    return exitCodeOf(err.kind);
  }
  const crowded = tooManyConnections(err);
  if (crowded !== undefined) {
    process.stderr.write(`tradeledger: ${crowded.said}\n  fix: ${crowded.fix}\n`);
    return exitCodes.database;
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
