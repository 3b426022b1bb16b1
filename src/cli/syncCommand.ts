import { Command } from 'commander';
import { TradeledgerError, exitCodes } from '../errors.js';
import { databaseError } from '../db/databaseError.js';
import { isConnectionProblem, refusalError } from '../db/connectionProblem.js';
import { reportLostDatabase } from './progress/reportLostDatabase.js';
import { createDb } from '../db/createDb.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { runSync } from '../extract/runSync.js';
import { planSync } from '../extract/planSync.js';
import { loadConfig } from './config/loadConfig.js';
import { syncProgress } from './progress/syncProgress.js';
import { syncSummary } from './progress/syncSummary.js';

interface SyncFlags { config?: string; account?: string; streams?: string; since?: string; dryRun?: boolean; json?: boolean }

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== ''));

/**
 * `tradeledger sync`: copies every configured account's history into PostgreSQL, resuming where
 * the last run stopped. Exit codes: 0 complete, 3 partial (some streams failed, the rest saved),
 * 2 configuration or authentication error, 4 database problem (unreachable, or lost mid-run: the
 * run is recorded as failed), 5 exchange unreachable, 1 internal error.
 *
 * @example
 * tradeledger sync --config tradeledger.json --since 2024-01-01 --json
 */
export function syncCommand(setExit: (code: number) => void): Command {
  return new Command('sync')
    .description('Copy the accounts\' history into PostgreSQL, incrementally (resumes after any crash).')
    .option('--config <file>', 'config file (JSON) listing accounts; default: one account from TRADELEDGER_* variables')
    .option('--account <names>', 'only these accounts (comma-separated names or UIDs)')
    .option('--streams <names>', 'only these streams (comma-separated), e.g. deposits,withdrawals')
    .option('--since <date>', 'where the history starts (YYYY-MM-DD UTC, ISO time or Unix ms); default: sync.historyDays (730) back, or an endpoint horizon if shorter. Later runs go on from where they stopped; an earlier --since also reads the history before what was read')
    .option('--dry-run', 'print the plan (windows and request counts) and write nothing')
    .option('--json', 'print a machine-readable summary on stdout')
    .addHelpText('after', '\nExit codes: 0 complete, 3 partial (rerun to resume), 2 config or authentication error, 4 database problem, 5 exchange unreachable, 1 internal error (see the README).')
    .action(async (flags: SyncFlags) => {
      try {
        await sync(flags, setExit);
      } catch (err) {
        // --json promises one JSON object on stdout whatever happens, for the scripts that parse it.
        if (flags.json) process.stdout.write(`${JSON.stringify({ status: 'failed', error: errorSummary(err) })}\n`);
        throw err;
      }
    });
}

async function sync(flags: SyncFlags, setExit: (code: number) => void): Promise<void> {
  const config = loadConfig({ config: flags.config, account: list(flags.account), streams: list(flags.streams), since: flags.since }, process.env);
  const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
  await migrate(url);
  const db = createDb(url, { name: 'sync', maxConnections: Math.min(20, config.sync.concurrency + 2) });
  // The rate budgets' reservations get a connection of their own (SyncOptions.rateDb).
  const rateDb = config.client.rateLimit && !flags.dryRun ? createDb(url, { name: 'sync-rates', maxConnections: 3 }) : undefined;
  const progress = flags.dryRun ? undefined : syncProgress();
  try {
    const options = { db, ...(rateDb ? { rateDb } : {}), emit: progress?.sink ?? (() => undefined), baseUrl: config.baseUrl, accounts: config.accounts, sync: config.sync, client: config.client };
    if (flags.dryRun) {
      const plan = await planSync(options);
      if (flags.json) process.stdout.write(`${JSON.stringify(plan)}\n`);
      else {
        for (const l of plan.lines) {
          process.stdout.write(`${`${l.account}/${l.stream}/${l.partition}`.padEnd(48)} ${l.endpoint.padEnd(28)} windows ${String(l.windows).padStart(3)}  requests >= ${l.minRequests}${l.from ? `  ${l.from.slice(0, 10)}..${l.to?.slice(0, 10)}` : ''}${l.backfill ? `  backfill ${l.backfill.from.slice(0, 10)}..${l.backfill.to.slice(0, 10)}` : ''}${l.gap ? `  gap ${l.gap.from.slice(0, 10)}..${l.gap.to.slice(0, 10)}` : ''}${l.unreadBefore ? `  gap before ${l.unreadBefore.before.slice(0, 10)} (default start; --since)` : ''}\n`);
        }
        process.stdout.write(`total: at least ${plan.requests} requests, at least ${plan.minSeconds.toFixed(1)} s at the rate limits\n`);
      }
      return;
    }
    const result = await runSync(options).catch((err: unknown) => {
      throw isConnectionProblem(err) ? databaseError(err, url, 'keep the connection to') : err;
    });
    progress?.stop();
    process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : syncSummary(result));
    if (result.status === 'failed') reportLostDatabase(result, url);
    setExit(result.status === 'ok' ? exitCodes.ok : result.status === 'failed' ? exitCodes.database : exitCodes.partial);
  } finally {
    progress?.stop();
    await rateDb?.destroy();
    await db.destroy();
  }
}

function errorSummary(error: unknown): Record<string, unknown> {
  const err = refusalError(error) ?? error;
  if (err instanceof TradeledgerError) return { code: err.code, kind: err.kind, message: err.message, hint: err.hint };
  return { code: 'INTERNAL', kind: 'internal', message: err instanceof Error ? err.message : String(err) };
}
