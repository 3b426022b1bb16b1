import { setTimeout as sleep } from 'node:timers/promises';
import { TradeledgerError } from '../errors.js';
import { embeddedPaths } from './embeddedServer.js';
import type { EmbeddedServerOptions } from './embeddedServerOptions.js';
import { livePostmaster } from './postmasterPid.js';

/**
 * Stops the embedded PostgreSQL of a data folder with a fast shutdown (open sessions are ended,
 * committed data is safe). Returns false when it was not running.
 *
 * @example
 * if (!(await stopEmbeddedServer(embeddedServerOptions()))) console.log('was not running');
 */
export async function stopEmbeddedServer(options: Pick<EmbeddedServerOptions, 'dataDir'>, waitMs = 60_000): Promise<boolean> {
  const { cluster } = embeddedPaths(options.dataDir);
  const live = await livePostmaster(cluster);
  if (!live) return false;
  try {
    process.kill(live.pid, 'SIGINT');
  } catch (err) {
    throw new TradeledgerError('DB_STOP', `cannot signal the embedded PostgreSQL (pid ${live.pid}): ${(err as Error).message}`, {
      kind: 'database', hint: 'Run `tradeledger db stop` as the user who started it (or as root).',
    });
  }
  const deadline = Date.now() + waitMs;
  while (await livePostmaster(cluster)) {
    if (Date.now() > deadline) {
      throw new TradeledgerError('DB_STOP', `the embedded PostgreSQL (pid ${live.pid}) did not stop within ${waitMs / 1000} s`, {
        kind: 'database', hint: 'Open sessions may be holding it; try again, or end them first.',
      });
    }
    await sleep(100);
  }
  return true;
}
