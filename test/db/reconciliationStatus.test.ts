// Issue 24 item 2: the accounts page's reconciliation counts come from reconciliationStatusSql
// (src/db/accountHealthCounts.ts), which computes each (account, wallet, coin)'s status without
// walking every bill. It must give the view's status on every row: hand-made ledgers here with
// each class and the cases where the two could part (bills sharing a moment, ledger rows at the
// first bill's moment, futures snapshots without bills, an imported opening balance, a ledger row
// without a wallet); test/extract/balancedReconciliation.test.ts compares them on a synced world.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeHealthCounts, reconciliationStatusSql } from '../../src/db/accountHealthCounts.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { reconcileFixtureSql } from '../reports/reconcileFixture.js';

let fresh: FreshDatabase;

// T: two spot bills at the first moment (ids 9 and 10: the view takes id 10's balance, 7) with a
// 5 BTC deposit at that moment and a 1 BTC deposit before it: opening 7 - 6 = 1; then a bill of 8
// after a 1 BTC deposit. Opening balance of 1.
// N: the ledger holds more than the exchange from the first bill on (a negative opening).
// F: futures snapshots only: USDT 40 with no ledger row (held all along: opening), USDC 10 with a
// 10 USDC transfer-in bill without balance (match), BTC 3 against a 1 BTC bill (unexplained).
// I: an imported opening balance of 2 ETH that the first spot bill (balance 2) agrees with.
// W: a transfer whose wallet the ledger cannot name.
const edges = `
INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw) VALUES
  ('T', 'd0', 'BTC', 'success', 1, '2025-01-01 09:00Z', '{}'),
  ('T', 'd1', 'BTC', 'success', 5, '2025-01-01 10:00Z', '{}'),
  ('T', 'd2', 'BTC', 'success', 1, '2025-01-02 10:00Z', '{}'),
  ('N', 'd1', 'USDT', 'success', 100, '2025-01-01 10:00Z', '{}'),
  ('N', 'd2', 'USDT', 'success', 10, '2025-01-01 09:00Z', '{}');
INSERT INTO spot_bills (account_uid, bill_id, coin, size, balance, c_time, raw) VALUES
  ('T', '9', 'BTC', 5, 6, '2025-01-01 10:00Z', '{}'),
  ('T', '10', 'BTC', 1, 7, '2025-01-01 10:00Z', '{}'),
  ('T', '11', 'BTC', 1, 8, '2025-01-02 10:00Z', '{}'),
  ('N', '1', 'USDT', 100, 100, '2025-01-01 10:00Z', '{}'),
  ('I', '1', 'ETH', 2, 2, '2025-01-03 10:00Z', '{}');
INSERT INTO futures_account_snapshots (snapshot_at, account_uid, product_type, margin_coin, account_equity, unrealized_pl, raw) VALUES
  ('2025-01-04Z', 'F', 'USDT-FUTURES', 'USDT', 40, 0, '{}'),
  ('2025-01-04Z', 'F', 'USDC-FUTURES', 'USDC', 11, 1, '{}'),
  ('2025-01-04Z', 'F', 'COIN-FUTURES', 'BTC', 3, NULL, '{}');
INSERT INTO futures_bills (account_uid, product_type, bill_id, coin, business_type, amount, fee, c_time, raw) VALUES
  ('F', 'USDC-FUTURES', 'b1', 'USDC', 'trans_from_exchange', 10, 0, '2025-01-03Z', '{}'),
  ('F', 'COIN-FUTURES', 'b2', 'BTC', 'trans_from_exchange', 1, 0, '2025-01-03Z', '{}');
INSERT INTO imported_files (sha256, kind, wallet, file_name, rows) VALUES ('f1', 'transactions', 'I', 'opening.csv', 1);
INSERT INTO imported_transactions (file_sha256, line, wallet, ts, received_amount, received_currency, tx_hash, raw, line_key) VALUES
  ('f1', 1, 'I', '2025-01-02 10:00Z', 2, 'ETH', 'opening-balance:I:spot:ETH', '{}', 'k1');
INSERT INTO transfers (account_uid, transfer_id, coin, status, size, from_type, to_type, ts, raw) VALUES
  ('W', 't1', 'USDT', 'Successful', 5, NULL, 'spot', '2025-01-01Z', '{}');
`;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(reconcileFixtureSql).execute(fresh.db);
  await sql.raw(edges).execute(fresh.db);
});
afterAll(async () => { await fresh?.drop(); });

type Status = { account_uid: string | null; wallet: string | null; coin: string | null; status: string };
const byKey = (a: Status, b: Status) => JSON.stringify([a.account_uid, a.wallet, a.coin]).localeCompare(JSON.stringify([b.account_uid, b.wallet, b.coin]));

async function both(): Promise<{ view: Status[]; fast: Status[] }> {
  const view = (await sql<Status>`SELECT account_uid, wallet, coin, status FROM reconciliation`.execute(fresh.db)).rows.sort(byKey);
  const fast = (await sql.raw<Status>(reconciliationStatusSql).execute(fresh.db)).rows.sort(byKey);
  return { view, fast };
}

describe('reconciliationStatusSql', () => {
  it('gives the view\'s status on every account, wallet and coin, every class present', async () => {
    const { view, fast } = await both();
    expect(fast).toEqual(view);
    const statuses = new Set(view.map((r) => r.status));
    expect([...statuses].sort()).toEqual(['match', 'no_snapshot', 'opening_balance', 'unexplained']);
    // The cases this file was written for are classed as the comment above says.
    const of = (uid: string, wallet: string, coin: string) => view.find((r) => r.account_uid === uid && r.wallet === wallet && r.coin === coin)?.status;
    expect([of('T', 'spot', 'BTC'), of('N', 'spot', 'USDT'), of('I', 'spot', 'ETH')]).toEqual(['opening_balance', 'unexplained', 'match']);
    expect([of('F', 'usdt_futures', 'USDT'), of('F', 'usdc_futures', 'USDC'), of('F', 'coin_futures', 'BTC')]).toEqual(['opening_balance', 'match', 'unexplained']);
  });

  it('stays equal when a ledger row goes missing, and the counts follow', async () => {
    await sql`DELETE FROM fees WHERE account_uid = 'M'`.execute(fresh.db);
    await sql`DELETE FROM deposits WHERE account_uid = 'T' AND order_id = 'd0'`.execute(fresh.db);
    const { view, fast } = await both();
    expect(fast).toEqual(view);
    const counts = await computeHealthCounts((text) => sql.raw(text).execute(fresh.db).then((r) => r.rows as Record<string, unknown>[]), false);
    for (const uid of ['M', 'O', 'U', 'T', 'N', 'F', 'I']) {
      const mine = view.filter((r) => r.account_uid === uid);
      expect({ uid, unexplained: counts[uid]?.unexplained ?? 0, opening: counts[uid]?.opening ?? 0 }).toEqual({
        uid, unexplained: mine.filter((r) => r.status === 'unexplained').length, opening: mine.filter((r) => r.status === 'opening_balance').length,
      });
    }
  });
});
