// Issue 20 item 5, end to end: a tiny sandbox world synced into a fresh database with the
// default first-sync start (730 days back) reconciles. Every account, wallet and coin for which
// the exchange reports a balance (the newest spot bill's running balance, E14's accountEquity -
// unrealizedPL) matches what the `ledger` view sums, because the sandbox's balances are the sums
// of its own history from the opening balances it declares at its first day.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSync } from '../../src/extract/runSync.js';
import { reconciliationStatusSql } from '../../src/db/accountHealthCounts.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';
import { testSyncOptions } from '../support/testSync.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, scale: 'tiny' });
  fresh = await freshDatabase();
  // The default start of a first sync (sync.historyDays = 730 back), not the tests' usual
  // earlier --since: the opening balances must lie inside what a plain `tradeledger sync` reads.
  const result = await runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { since: undefined } }));
  expect(result.errors).toEqual([]);
}, 600_000);
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

interface Row { account_uid: string; wallet: string; coin: string; status: string; exchange_balance: string | null; ledger_balance: string; difference: string | null; explanation?: string | null }

describe('reconciliation of a synced sandbox world', () => {
  it('every account, wallet and coin with an exchange balance matches the ledger', async () => {
    const { rows } = await sql<Row>`SELECT account_uid, wallet, coin, status, exchange_balance::text, ledger_balance::text, difference::text, explanation FROM reconciliation ORDER BY 1, 2, 3`.execute(fresh.db);
    const withSnapshot = rows.filter((r) => r.exchange_balance !== null);
    expect(withSnapshot.filter((r) => r.status !== 'match')).toEqual([]);
    const accounts = sandbox.world.accounts;
    // Every account's spot wallet (demo aside: it has none) and every futures wallet reconciles.
    for (const a of accounts) {
      const mine = withSnapshot.filter((r) => r.account_uid === a.uid);
      if (!a.demo) expect(mine.filter((r) => r.wallet === 'spot').length, `account ${a.uid} spot coins`).toBeGreaterThanOrEqual(5);
      expect(mine.filter((r) => r.wallet.endsWith('futures')).length, `account ${a.uid} futures coins`).toBeGreaterThan(0);
    }
    expect(withSnapshot.length).toBeGreaterThan(60);
  });

  it('the accounts page\'s reconciliation status (src/db/accountHealthCounts.ts) equals the view\'s on every row', async () => {
    type Status = { account_uid: string; wallet: string; coin: string; status: string };
    const order = (a: Status, b: Status) => `${a.account_uid} ${a.wallet} ${a.coin}`.localeCompare(`${b.account_uid} ${b.wallet} ${b.coin}`);
    const view = (await sql<Status>`SELECT account_uid, wallet, coin, status FROM reconciliation`.execute(fresh.db)).rows.sort(order);
    const fast = (await sql.raw<Status>(reconciliationStatusSql).execute(fresh.db)).rows.sort(order);
    expect(fast).toEqual(view);
    expect(view.length).toBeGreaterThan(60);
  });

  it('the rows without a snapshot are the margin wallets (the exchange reports no margin balance) and spot coins the history never moved', async () => {
    const { rows } = await sql<Row>`SELECT account_uid, wallet, coin, status FROM reconciliation WHERE exchange_balance IS NULL`.execute(fresh.db);
    const unexplained = rows.filter((r) => !r.wallet.endsWith('_margin'));
    expect(unexplained).toEqual([]);
  });

  it('no ledger balance is negative, in any wallet, at any time', async () => {
    const { rows } = await sql<{ account_uid: string; wallet: string; coin: string; low: string }>`
      SELECT account_uid, wallet, coin, min(running)::text AS low FROM (
        SELECT account_uid, wallet, coin, sum(amount) OVER (PARTITION BY account_uid, wallet, coin ORDER BY ts, source, source_id, leg) AS running
        FROM ledger) x
      GROUP BY 1, 2, 3 HAVING min(running) < 0`.execute(fresh.db);
    expect(rows).toEqual([]);
  });

  it('demo futures wallets hold only demo coins', async () => {
    const demo = sandbox.world.accounts.filter((a) => a.demo).map((a) => a.uid);
    expect(demo.length).toBeGreaterThan(0);
    const { rows } = await sql<{ coin: string }>`SELECT DISTINCT coin FROM ledger WHERE account_uid IN (${sql.join(demo)})`.execute(fresh.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.coin).toMatch(/^S/);
  });
});
