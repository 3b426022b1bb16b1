import { Command } from 'commander';
import { TradeledgerError, exitCodes } from '../errors.js';
import { createDb, poolOf } from '../db/createDb.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import type { SyncEvent } from '../extract/syncEvent.js';
import { accountsToQueue } from '../worker/accountsToQueue.js';
import { runWorker } from '../worker/runWorker.js';
import { checkConnectionRoom, requireSharedDatabase, workerConnections } from '../worker/workerConnections.js';
import { jsonWorkerLog } from '../worker/workerLog.js';
import { loadConfig } from './config/loadConfig.js';
import { configError } from './config/configError.js';

// The sync's own events a worker log keeps: the run's outline and every problem, not its pages.
const kept = new Set<SyncEvent['type']>(['run-start', 'run-done', 'partition-done', 'partition-failed', 'gap', 'backfill', 'retry']);

/**
 * `tradeledger worker`: runs sync jobs from the database's queue until SIGTERM or Ctrl-C. Start
 * any number on any number of machines with the same config file; each account is synced by
 * one worker at a time. Logs one JSON line per event on stderr.
 *
 * @example
 * tradeledger worker --config /etc/tradeledger/config.json --concurrency 4
 */
export function workerCommand(_setExit: (code: number) => void): Command {
  return new Command('worker')
    .description('Run sync jobs (one account per job) from the database\'s job queue; run several, on several machines.')
    .option('--config <file>', 'config file (JSON) listing the accounts; the same file on every machine (or TRADELEDGER_CONFIG)')
    .option('--concurrency <n>', 'accounts this process syncs at once (default: worker.concurrency in the config, 2)')
    .action(async (flags: { config?: string; concurrency?: string }) => {
      const config = loadConfig({ config: flags.config }, process.env);
      const concurrency = flags.concurrency === undefined ? config.worker.concurrency : wholeFlag('--concurrency', flags.concurrency);
      requireSharedDatabase('worker', process.env);
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
      await migrate(url);
      const budget = workerConnections(concurrency);
      const db = createDb(url, { name: 'worker-sync', maxConnections: budget.sync });
      // The rate budgets' reservations get connections of their own, as \`tradeledger sync\`'s do
      // (SyncOptions.rateDb): a paced request never waits for a connection behind the loading.
      const rateDb = config.client.rateLimit ? createDb(url, { name: 'worker-sync-rates', maxConnections: budget.rates }) : undefined;
      const log = jsonWorkerLog(process.stderr);
      try {
        const room = await checkConnectionRoom(poolOf(db), budget, concurrency);
        const free = room.maxConnections - room.reserved - room.inUse;
        if (budget.total > free) log.write({ type: 'worker-connections', level: 'warn', budget: budget.total, free, maxConnections: room.maxConnections, message: `this worker may open ${budget.total} connections and ${free} are free now` });
        const sink = (e: SyncEvent) => { if (kept.has(e.type)) log.write(e); };
        const worker = await runWorker({
          url, db, concurrency, schedule: config.schedule, log, stopGraceMs: config.worker.stopGraceMs,
          liveness: { heartbeatMs: config.worker.heartbeatMs, sweepMs: config.worker.sweepMs, staleMs: config.worker.staleMs },
          optionsFor: (name, streams) => {
            const account = config.accounts.find((a) => a.name === name);
            if (account === undefined) throw configError(config.source, 'accounts', `no account named "${name}" (a job was queued for it)`, 'add the account back to the config on every worker, or let the job fail');
            return { db, ...(rateDb ? { rateDb } : {}), emit: sink, baseUrl: config.baseUrl, accounts: [account], sync: { ...config.sync, streams: streams ?? config.sync.streams }, client: config.client };
          },
          accountsToQueue: async () => (await accountsToQueue(db, config.accounts, config.source)).map((t) => ({ ...t, ...(config.sync.streams ? { streams: [...config.sync.streams] } : {}) })),
        });
        const stop = () => { void worker.stop(); };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
        try {
          await Promise.race([worker.done, new Promise<void>((resolve) => { process.once('SIGTERM', resolve); process.once('SIGINT', resolve); })]);
        } finally {
          await worker.stop();
        }
        // A sync abandoned at shutdown may still be mid-page: end the process (as a kill would;
        // every commit is atomic and the engine retries the job elsewhere) rather than pull its
        // database pool away under it.
        process.exit(exitCodes.ok);
      } catch (e) {
        await db.destroy();
        await rateDb?.destroy();
        throw e;
      }
    });
}

function wholeFlag(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    throw new TradeledgerError('BAD_FLAG', `${flag} must be a whole number from 1 to 64 (got "${text}")`, { kind: 'config', hint: `pass ${flag} 2, for example` });
  }
  return Number(text);
}
