import { ExchangeClient } from '../api/exchangeClient.js';
import { systemClock } from '../api/rateBudget.js';
import { RateBudgets } from '../api/rateBudgets.js';
import { PgRateStore } from './pgRateStore.js';
import type { SyncOptions } from './syncOptions.js';
import { checkSkew } from './exchangeSession.js';

/**
 * Measures the exchange clock's offset from this machine's (as a run's first account would) and
 * refuses one beyond `client.maxClockSkewMs`. For processes that start many short runs: they
 * measure once and pass the result as `SyncOptions.clockOffsetMs`. Given the database, its public
 * requests spend the per-address budgets every other process on this address spends.
 *
 * @example
 * const clockOffsetMs = await measureClockOffset(options);
 */
export async function measureClockOffset(o: Pick<SyncOptions, 'baseUrl' | 'client'> & Partial<Pick<SyncOptions, 'db'>>): Promise<number> {
  const client = new ExchangeClient({
    baseUrl: o.baseUrl, budgetKey: 'clock',
    ...(o.db === undefined ? {} : { budgets: new RateBudgets(systemClock, new PgRateStore(o.db, o.client.budgetAddress)) }), safetyFactor: o.client.safetyFactor, maxRetries: o.client.maxRetries,
    retryBaseMs: o.client.retryBaseMs, timeoutMs: o.client.timeoutMs, rateLimit: o.client.rateLimit,
  });
  try {
    return checkSkew(await client.syncClock(), o.client.maxClockSkewMs);
  } finally {
    await client.close();
  }
}
