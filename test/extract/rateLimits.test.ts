import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;

beforeAll(async () => {
  // The limiter counts each signed request at its signing time: the sandbox shares this process's
  // event loop with the sync, so on a busy machine a request can be served late and the next on
  // time, a 429 that says nothing about the budgets (their spacing is what this test checks).
  sandbox = await startTestSandbox({ rateLimit: true, rateClock: ({ signedAtMs }) => signedAtMs ?? performance.now() });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

describe('rate budgets', () => {
  // The zero-429 figure at arrival time is measured by the benchmark with the sandbox in its own process.
  it('runs every account and stream at once at the real per-UID limits with (almost) no 429 answers', async () => {
    const options = testSyncOptions(sandbox, fresh.db);
    const result = await runSync({
      ...options,
      sync: {
        ...options.sync, since: sandbox.world.now() - 45 * DAY_MS,
        streams: ['marginRecords', 'taxSpotRecords', 'deposits', 'transfers', 'futuresFills', 'positions', 'subAccountApiKeys'],
      },
      client: { ...options.client, rateLimit: true, safetyFactor: 0.8 },
    });
    expect(result.errors).toEqual([]);
    const stats = sandbox.stats;
    expect(stats.total).toBeGreaterThan(50);
    expect(stats.total429, JSON.stringify(stats.rateLimited)).toBeLessThanOrEqual(Math.max(1, stats.total * 0.01));
    // Several UIDs hit the 1/s endpoint E5 in the same run: each within its own budget.
    expect(Object.keys(stats.requests['E5'] ?? {}).length).toBeGreaterThan(1);
  });
});
