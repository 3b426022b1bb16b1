import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
type Row = { wallet: string; coin: string; snapshot_balance: string | null; ledger_sum: string; difference: string | null; status: string; parted_record_id?: string | null };

// Account R: deposit 10000 USDT, buy 0.1 BTC for 5000 USDT paying 5 USDT, then spot bills whose
// running balances agree (USDT 4995, BTC 0.1); a later deposit after the last bill must not count.
// usdt_futures: a 50 USDT transfer-in bill, but the account snapshot says 60 equity with 8
// unrealized, i.e. 52: a difference of 2. ETH has a bill balance and no ledger rows; the crossed
// margin wallet has ledger rows and no snapshot.
const setup = `
INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw) VALUES
  ('R', 'd1', 'USDT', 'success', 10000, '2025-01-01Z', '{}'),
  ('R', 'd2', 'USDT', 'success', 1, '2025-03-01Z', '{}');
INSERT INTO spot_fills (account_uid, trade_id, symbol, side, size, amount, c_time, raw) VALUES
  ('R', 'f1', 'BTCUSDT', 'buy', 0.1, 5000, '2025-01-02Z', '{}');
INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time) VALUES
  ('R', 'spot_fills', 'f1', 0, 'USDT', 5, 'new', '2025-01-02Z');
INSERT INTO spot_bills (account_uid, bill_id, coin, size, balance, c_time, raw) VALUES
  ('R', '9', 'USDT', 10000, 10000, '2025-01-01Z', '{}'),
  ('R', '10', 'USDT', -5005, 4995, '2025-01-02Z', '{}'),
  ('R', '11', 'BTC', 0.1, 0.1, '2025-01-02Z', '{}'),
  ('R', '12', 'ETH', 1, 1, '2025-01-02Z', '{}');
INSERT INTO futures_bills (account_uid, product_type, bill_id, coin, business_type, amount, fee, c_time, raw) VALUES
  ('R', 'USDT-FUTURES', 'b1', 'USDT', 'trans_from_exchange', 50, 0, '2025-01-03Z', '{}');
INSERT INTO futures_account_snapshots (snapshot_at, account_uid, product_type, margin_coin, account_equity, unrealized_pl, raw) VALUES
  ('2025-01-04Z', 'R', 'USDT-FUTURES', 'USDT', 70, 0, '{}'),
  ('2025-01-05Z', 'R', 'USDT-FUTURES', 'USDT', 60, 8, '{}');
INSERT INTO margin_records (account_uid, margin_type, id, coin, margin_tax_type, amount, fee, ts, raw) VALUES
  ('R', 'crossed', 'm1', 'USDT', 'borrow', 3, 0, '2025-01-06Z', '{}');
`;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(setup).execute(fresh.db);
});
afterAll(async () => { await fresh?.drop(); });

describe('reconciliation view', () => {
  it('compares the ledger with the newest snapshot and lists every pair with its status', async () => {
    const { rows } = await sql<Row>`
      SELECT wallet, coin, money_text(exchange_balance) AS snapshot_balance, money_text(ledger_balance) AS ledger_sum,
             money_text(difference) AS difference, status
      FROM reconciliation ORDER BY wallet, coin`.execute(fresh.db);
    expect(rows).toEqual([
      { wallet: 'crossed_margin', coin: 'USDT', snapshot_balance: null, ledger_sum: '3', difference: null, status: 'no_snapshot' },
      { wallet: 'spot', coin: 'BTC', snapshot_balance: '0.1', ledger_sum: '0.1', difference: '0', status: 'match' },
      // A bill balance and no ledger row: held before the first record read (sql/schema/views/reconciliation.sql).
      { wallet: 'spot', coin: 'ETH', snapshot_balance: '1', ledger_sum: '0', difference: '1', status: 'opening_balance' },
      // 10000 - 5000 - 5; the 1 USDT deposit after the newest bill is not counted.
      { wallet: 'spot', coin: 'USDT', snapshot_balance: '4995', ledger_sum: '4995', difference: '0', status: 'match' },
      // Futures bills without a running balance: the difference cannot be walked to a record.
      { wallet: 'usdt_futures', coin: 'USDT', snapshot_balance: '52', ledger_sum: '50', difference: '2', status: 'unexplained' },
    ]);
  });

  it('surfaces a missing ledger row as an unexplained difference from the bill where it is missing', async () => {
    await sql`DELETE FROM fees WHERE source_id = 'f1'`.execute(fresh.db);
    const { rows } = await sql<Row>`
      SELECT money_text(difference) AS difference, status, parted_record_id FROM reconciliation WHERE wallet = 'spot' AND coin = 'USDT'`.execute(fresh.db);
    expect(rows).toEqual([{ difference: '-5', status: 'unexplained', parted_record_id: '10' }]);
  });
});
