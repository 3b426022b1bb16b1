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
import { DAY_MS } from '../../src/api/endpoints.js';

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

  it('re-checks a transfer out of a sub-account that is still open under that sub-account\'s partition, however old', async () => {
    const mainAccount = sandbox.world.accounts.find((a) => a.main && !a.demo && a.subUids.length > 0)!;
    // A transfer out of a sub stored as still Processing (as an earlier sync would have left it),
    // a month older than the look-back; the exchange has it Successful by now.
    const { rows } = await sql<{ transfer_id: string; from_user_id: string }>`
      SELECT transfer_id, from_user_id FROM transfers
      WHERE account_uid = ${mainAccount.uid} AND from_user_id <> account_uid AND status = 'Successful' AND ts < ${new Date(sandbox.world.now() - 30 * DAY_MS).toISOString()}::timestamptz
      ORDER BY ts DESC LIMIT 1`.execute(fresh.db);
    const open = rows[0]!;
    expect(open).toBeDefined();
    await sql`UPDATE transfers SET status = 'Processing', raw = jsonb_set(raw, '{status}', '"Processing"')
      WHERE account_uid = ${mainAccount.uid} AND transfer_id = ${open.transfer_id}`.execute(fresh.db);

    const result = await runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { streams: ['transfers'] } }));
    expect(result.errors).toEqual([]);
    const after = await sql<{ status: string }>`SELECT status FROM transfers WHERE transfer_id = ${open.transfer_id}`.execute(fresh.db);
    expect(after.rows).toEqual([{ status: 'Successful' }]);
    const name = Object.keys(result.counts).find((k) => k.endsWith(`/transfers/${open.from_user_id}/open-recheck`))!;
    expect(result.counts[name]!.requests).toBe(1);
    expect((await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox), ['transfers'])).differences).toEqual([]);
  });
});
