import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { sandboxUids, testSyncOptions } from '../support/testSync.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { runSync } from '../../src/extract/runSync.js';
import type { TransferRecord } from '../../src/api/records/wallet.js';

// Issue 20 item 3: E19 without subUid lists only the transfers made from the main account, so
// the main account's transfers out of each sub-account are asked for sub by sub.

let sandbox: RunningSandbox;
let fresh: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

describe('transfers, one partition per sub-account beside the main account\'s own', () => {
  it('stores each transfer the main account made out of a sub-account (visible only with that subUid) exactly once', async () => {
    const mainAccount = sandbox.world.accounts.find((a) => a.main && !a.demo && a.subUids.length > 0)!;
    const truth = (await (await fetch(`${sandbox.baseUrl}/_sandbox/truth?uid=${mainAccount.uid}&resource=transfers`)).text())
      .trim().split('\n').map((l) => JSON.parse(l).record as TransferRecord);
    const outOfSubs = truth.filter((t) => mainAccount.subUids.includes(t.fromUserId));
    expect(outOfSubs.length).toBeGreaterThan(0);

    const opts = testSyncOptions(sandbox, fresh.db, [], { sync: { streams: ['transfers'] } });
    const first = await runSync(opts);
    expect(first.errors).toEqual([]);
    expect(first.status).toBe('ok');

    const { rows } = await sql<{ transfer_id: string; n: number }>`
      SELECT transfer_id, count(*)::int AS n FROM transfers WHERE transfer_id IN (${sql.join(outOfSubs.map((t) => t.transferId))}) GROUP BY transfer_id`.execute(fresh.db);
    expect(rows.length).toBe(outOfSubs.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    // Stored under the main account, which initiated them; the whole table equals the ground truth.
    const owners = await sql<{ account_uid: string }>`SELECT DISTINCT account_uid FROM transfers WHERE transfer_id IN (${sql.join(outOfSubs.map((t) => t.transferId))})`.execute(fresh.db);
    expect(owners.rows).toEqual([{ account_uid: mainAccount.uid }]);
    expect((await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox), ['transfers'])).differences).toEqual([]);
    // One partition per sub-account beside the main account's own.
    const parts = await sql<{ partition: string }>`SELECT partition FROM sync_state WHERE stream = 'transfers' AND account_uid = ${mainAccount.uid} ORDER BY 1`.execute(fresh.db);
    expect(parts.rows.map((r) => r.partition)).toEqual(['all', ...mainAccount.subUids].sort());

    // A second sync finds nothing new and doubles nothing.
    const again = await runSync(opts);
    expect(again.status).toBe('ok');
    expect(Object.values(again.counts).reduce((n, c) => n + c.inserted, 0)).toBe(0);
    expect((await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox), ['transfers'])).differences).toEqual([]);
  });
});
