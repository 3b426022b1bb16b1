import { Command } from 'commander';
import { makeWorkerUtils } from 'graphile-worker';
import { createDb } from '../db/createDb.js';
import { createPool } from '../db/pools.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { requireSharedDatabase } from '../worker/workerConnections.js';
import { accountsToQueue } from '../worker/accountsToQueue.js';
import { enqueueSyncs } from '../worker/enqueueSyncs.js';
import { engineLogger, jsonWorkerLog } from '../worker/workerLog.js';
import { loadConfig } from './config/loadConfig.js';

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== ''));

/**
 * `tradeledger enqueue`: adds one sync job per account for the workers. Enqueueing an account
 * whose job is still waiting leaves one job (its job key), not two.
 *
 * @example
 * tradeledger enqueue --config tradeledger.json --account client-001,client-002 --streams deposits
 */
export function enqueueCommand(_setExit: (code: number) => void): Command {
  return new Command('enqueue')
    .description('Queue a sync job per account for `tradeledger worker` (a pending job is never doubled).')
    .option('--config <file>', 'config file (JSON) listing the accounts (or TRADELEDGER_CONFIG)')
    .option('--account <names>', 'only these accounts (comma-separated names or UIDs)')
    .option('--streams <names>', 'only these streams (comma-separated)')
    .option('--json', 'print the queued jobs as JSON')
    .action(async (flags: { config?: string; account?: string; streams?: string; json?: boolean }) => {
      const config = loadConfig({ config: flags.config, account: list(flags.account), streams: list(flags.streams) }, process.env);
      requireSharedDatabase('enqueue', process.env);
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
      await migrate(url);
      const db = createDb(url, { name: 'enqueue', maxConnections: 2 });
      const enginePool = createPool({ url, name: 'enqueue-engine', max: 2 });
      const utils = await makeWorkerUtils({ pgPool: enginePool, logger: engineLogger(jsonWorkerLog(process.stderr)) }).catch(async (e: unknown) => {
        await enginePool.end();
        await db.destroy();
        throw e;
      });
      try {
        await utils.migrate();
        const targets = (await accountsToQueue(db, config.accounts, config.source)).map((t) => ({ ...t, ...(config.sync.streams ? { streams: [...config.sync.streams] } : {}) }));
        const ids = await enqueueSyncs(utils, targets);
        const jobs = targets.map((t, i) => ({ ...t, jobId: ids[i]!.id, alreadyQueued: ids[i]!.alreadyQueued }));
        if (flags.json) process.stdout.write(`${JSON.stringify({ jobs })}\n`);
        else {
          for (const j of jobs) {
            process.stdout.write(`${j.alreadyQueued ? 'already queued' : 'queued'} ${j.account} (${j.uid})${j.streams ? ` streams ${j.streams.join(',')}` : ''}: job ${j.jobId}${j.alreadyQueued ? ' (still pending: not doubled)' : ''}\n`);
          }
        }
      } finally {
        await utils.release();
        await enginePool.end();
        await db.destroy();
      }
    });
}
