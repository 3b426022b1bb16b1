import type pg from 'pg';

/**
 * A small hand-made history for accounts A (main) and B (sub), mostly in 2025, covering every
 * ledger kind, the settled-only rules, a transfer between the two accounts, fee rows that must
 * not be counted (spot_orders, futures_fills sources), and two extreme amounts. Expected values
 * in the tests are computed by hand from these rows.
 */
export const fixtureSql = `
INSERT INTO accounts (uid, name, kind, parent_uid) VALUES ('A', 'main', 'main', NULL), ('B', 'sub', 'sub', 'A');

INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, order_type, trade_scope, price_avg, size, amount, c_time, raw) VALUES
  ('A', 'f1', 'o1', 'BTCUSDT', 'buy',  'limit', 'taker', 1, 0.000000089, 12345678901234.123456789012, '2025-03-01 10:00Z', '{}'),
  ('A', 'f2', 'o2', 'ETHUSDT', 'Sell', 'market', 'taker', 3500, 2, 7000, '2025-12-31 23:30Z', '{}'),
  ('A', 'f3', 'o3', 'BTCUSDT', 'buy',  'limit', 'maker', 60000, 1, 60000, '2025-05-01 00:00Z', '{}');

INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, platform_deducted, coupon_covered, payable_in_received_coin, format, rebate, c_time) VALUES
  ('A', 'spot_fills', 'f1', 0, 'BGB', 0.5, 0.5, 0, 0.000000001, 'new', false, '2025-03-01 10:00Z'),
  ('A', 'spot_fills', 'f2', 0, 'USDT', 3.5, 0, 0, 3.5, 'new', false, '2025-12-31 23:30Z'),
  ('A', 'spot_fills', 'f2', 1, 'BGB', 0.1, 0.1, 0, 0, 'new', false, '2025-12-31 23:30Z'),
  ('A', 'spot_fills', 'f3', 0, 'USDT', -0.2, 0, 0, -0.2, 'legacy', true, '2025-05-01 00:00Z'),
  ('A', 'spot_orders', 'o1', 0, 'USDT', 999, 0, 0, 999, 'new', false, '2025-03-01 10:00Z'),
  ('A', 'futures_fills', 'ff1', 0, 'USDT', 777, 0, 0, 777, 'legacy', false, '2025-04-01 00:00Z');

INSERT INTO spot_orders (account_uid, order_id, symbol, side, status, size, base_volume, quote_volume, c_time, raw) VALUES
  ('A', 'o1', 'BTCUSDT', 'buy', 'filled', 0.000000089, 0.000000089, 12345678901234.123456789012, '2025-03-01 10:00Z', '{}');
INSERT INTO futures_fills (account_uid, product_type, trade_id, symbol, base_volume, profit, c_time, raw) VALUES
  ('A', 'USDT-FUTURES', 'ff1', 'BTCUSDT', 1, 12.5, '2025-04-01 00:00Z', '{}');
INSERT INTO cross_margin_orders (account_uid, order_id, symbol, side, status, size, c_time, raw) VALUES
  ('A', 'cm1', 'BTCUSDT', 'systemRepay-selll', 'partially_fill', 1, '2025-04-01 00:00Z', '{}');
INSERT INTO tax_spot_records (account_uid, id, coin, spot_tax_type, amount, fee, total, ts, raw) VALUES
  ('A', 'tx1', 'USDT', 'deposit', 1000, 0, 1000, '2025-01-10 00:00Z', '{}');

INSERT INTO deposits (account_uid, order_id, trade_id, coin, type, dest, status, size, from_address, c_time, raw) VALUES
  ('A', 'd1', '0xhash1', 'USDT', 'deposit', 'on_chain', 'success', 1000, '0xfrom', '2025-01-10 00:00Z', '{}'),
  ('A', 'd2', '0xhash2', 'USDT', 'deposit', 'on_chain', 'pending', 500, '0xfrom', '2025-01-11 00:00Z', '{}'),
  ('A', 'd3', 'd3', 'USDT', 'deposit', 'internal_transfer', 'fail', 300, 'B', '2025-01-12 00:00Z', '{}');
INSERT INTO withdrawals (account_uid, order_id, trade_id, coin, type, dest, status, size, fee, to_address, c_time, raw) VALUES
  ('A', 'w1', '0xhashw1', 'USDT', 'withdraw', 'on_chain', 'success', 100, 1, '0xto', '2025-02-01 00:00Z', '{}'),
  ('A', 'w2', '0xhashw2', 'USDT', 'withdraw', 'on_chain', 'pending', 50, 1, '0xto', '2025-02-02 00:00Z', '{}');

INSERT INTO transfers (account_uid, transfer_id, coin, status, from_type, to_type, from_user_id, to_user_id, size, ts, raw) VALUES
  ('A', 'x1', 'USDT', 'Successful', 'spot', 'spot', 'A', 'B', 250, '2025-02-15 00:00Z', '{}'),
  ('A', 'x2', 'USDT', 'Failed', 'spot', 'spot', 'A', 'B', 999, '2025-02-16 00:00Z', '{}'),
  ('A', 'x3', 'USDT', 'Successful', 'spot', 'usdt_futures', 'A', 'A', 40, '2025-03-15 00:00Z', '{}');

INSERT INTO margin_records (account_uid, margin_type, id, coin, symbol, margin_tax_type, amount, fee, total, ts, raw) VALUES
  ('A', 'crossed', 'm1', 'USDT', 'BTCUSDT', 'borrow', 100, 0, 100, '2025-06-01 00:00Z', '{}'),
  ('A', 'crossed', 'm2', 'USDT', 'BTCUSDT', 'repay', -50, 0, 50, '2025-06-02 00:00Z', '{}'),
  ('A', 'crossed', 'm3', 'USDT', 'BTCUSDT', 'interest_repay', 0.5, 0, 0.5, '2025-06-03 00:00Z', '{}'),
  ('A', 'crossed', 'm4', 'USDT', 'BTCUSDT', 'liquidation_fee', 1.5, 0, 1.5, '2025-06-04 00:00Z', '{}'),
  ('A', 'crossed', 'm5', 'USDT', 'BTCUSDT', 'compensate', 2, 0, 2, '2025-06-05 00:00Z', '{}'),
  ('A', 'crossed', 'm6', 'USDT', 'BTCUSDT', 'confiscated', 3, 0, 3, '2025-06-06 00:00Z', '{}'),
  ('A', 'crossed', 'm7', 'BTC', 'BTCUSDT', 'exchange_in', 4, 0, 4, '2025-06-07 00:00Z', '{}'),
  ('A', 'crossed', 'm8', 'USDT', 'BTCUSDT', 'exchange_out', 5, 0, 5, '2025-06-08 00:00Z', '{}'),
  ('A', 'crossed', 'm9', 'BTC', 'BTCUSDT', 'deal_in', 0.01, 0, 0.01, '2025-06-09 00:00Z', '{}'),
  ('A', 'crossed', 'm10', 'BTC', 'BTCUSDT', 'deal_out', 0.005, 0, 0.005, '2025-06-10 00:00Z', '{}'),
  ('A', 'crossed', 'm11', 'USDT', 'BTCUSDT', 'transfer_in', 10, 0, 10, '2025-06-11 00:00Z', '{}'),
  ('A', 'crossed', 'm12', 'USDT', 'BTCUSDT', 'transfer_out', 5, 0, 5, '2025-06-12 00:00Z', '{}'),
  ('A', 'isolated', 'm1', 'USDT', 'ETHUSDT', 'borrow', 7, 0.07, 7, '2025-06-13 00:00Z', '{}');

INSERT INTO futures_bills (account_uid, product_type, bill_id, symbol, coin, business_type, amount, fee, fee_by_coupon, balance, c_time, raw) VALUES
  ('A', 'USDT-FUTURES', 'b0', NULL, 'USDT', 'trans_from_exchange', 40, 0, 0, 40, '2025-03-15 00:00Z', '{}'),
  ('A', 'USDT-FUTURES', 'b1', 'BTCUSDT', 'USDT', 'close_long', 12.5, -0.3, 0, 52.2, '2025-04-01 00:00Z', '{}'),
  ('A', 'USDT-FUTURES', 'b2', 'BTCUSDT', 'USDT', 'contract_settle_fee', -0.02, 0, 0, 52.18, '2025-04-02 00:00Z', '{}'),
  ('A', 'USDT-FUTURES', 'b3', 'BTCUSDT', 'USDT', 'open_long', 0, -0.1, 0, 52.08, '2025-04-03 00:00Z', '{}');

INSERT INTO spot_bills (account_uid, bill_id, coin, group_type, business_type, size, balance, fees, c_time, raw, problems) VALUES
  ('A', 'sb1', 'USDT', 'deposit', 'deposit', 1000, NULL, 0, '2025-01-10 00:00Z', '{"balance":"1,0"}', '{"balance: not a number: 1,0"}');

INSERT INTO history_gaps (account_uid, stream, partition, gap_from, gap_to, reason) VALUES
  ('A', 'futuresOrders', 'USDT-FUTURES', '2024-01-01Z', '2025-09-01Z', 'E21 serves only the last 90 days');
INSERT INTO sync_state (account_uid, stream, partition, watermark, status) VALUES
  ('A', 'spotFills', 'all', '2026-01-05 00:00Z', 'idle');
`;

/**
 * Loads {@link fixtureSql} into a fresh database.
 *
 * @example
 * await loadLedgerFixture(client);
 */
export async function loadLedgerFixture(client: pg.ClientBase): Promise<void> {
  await client.query(fixtureSql);
}
