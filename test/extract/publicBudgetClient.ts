// One process of the shared-budget test (sharedRateBudgets.test.ts): an exchange client over
// rate budgets whose per-address part lives in PostgreSQL (PgRateStore), or, with SHARED=0, in
// this process alone. It prints "ready", waits for "go" on stdin (so that every process starts
// at once), calls the public endpoint COUNT times at once without retries, and prints its tally.
import { createInterface } from 'node:readline';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { systemClock } from '../../src/api/rateBudget.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { createDb } from '../../src/db/createDb.js';
import { PgRateStore } from '../../src/extract/pgRateStore.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};
const db = createDb(env('DATABASE_URL'), { name: 'test-shared-budget', maxConnections: 4 });
const budgets = new RateBudgets(systemClock, env('SHARED') === '1' ? new PgRateStore(db, env('ADDRESS')) : undefined);
const client = new ExchangeClient({ baseUrl: env('BASE_URL'), budgetKey: `process-${process.pid}`, budgets, maxRetries: 0 });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();
const results = await Promise.allSettled(Array.from({ length: Number(env('COUNT')) }, () => client.request('publicSymbols', { symbol: 'BTCUSDT' }, undefined, { retry: false })));
const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r.reason as { code?: unknown }).code));
process.stdout.write(`${JSON.stringify({ ok: results.length - failed.length, failed })}\n`);
await client.close();
await db.destroy();
