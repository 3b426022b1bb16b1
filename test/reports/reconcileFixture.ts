// Hand-made accounts for the reconciliation (sql/schema/views/reconciliation.sql), inserted straight into the tables the
// sync fills. Each spot bill carries the exchange's running balance after it.
//
//   M  matches: a 1000 USDT deposit, a buy of 0.01 BTC for 500 USDT paying 0.5 USDT, a 100 USDT
//      withdrawal paying 1 USDT; bills agree with every step.
//   O  has 2 BTC from before the first record read: its first bill (a 1 BTC deposit) already
//      shows 3 BTC, then a sale of 0.5 BTC for 30000 USDT paying 30 USDT. BTC is an opening
//      balance of 2; USDT matches.
//   U  deposits 100 USDT (bill 301), 50 USDT (bill 302) and withdraws 20 (bill 303); the 50 USDT
//      deposit d-u2 is deleted from deposits after the insert, so the ledger is 50 short from
//      bill 302 on. It also has a crossed-margin borrow, which no exchange balance can check.
export const reconcileFixtureSql = `
INSERT INTO deposits (account_uid, order_id, trade_id, coin, type, status, size, c_time, raw) VALUES
  ('M', 'd-m1', 'tx-m1', 'USDT', 'deposit', 'success', 1000, '2025-02-01 10:00Z', '{}'),
  ('O', 'd-o1', 'tx-o1', 'BTC', 'deposit', 'success', 1, '2025-02-01 10:00Z', '{}'),
  ('U', 'd-u1', 'tx-u1', 'USDT', 'deposit', 'success', 100, '2025-02-01 10:00Z', '{}'),
  ('U', 'd-u2', 'tx-u2', 'USDT', 'deposit', 'success', 50, '2025-02-02 11:30Z', '{}');
INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, size, amount, c_time, raw) VALUES
  ('M', 'f-m1', 'o-m1', 'BTCUSDT', 'buy', 0.01, 500, '2025-02-02 10:00Z', '{}'),
  ('O', 'f-o1', 'o-o1', 'BTCUSDT', 'sell', 0.5, 30000, '2025-02-02 10:00Z', '{}');
INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time) VALUES
  ('M', 'spot_fills', 'f-m1', 0, 'USDT', 0.5, 'new', '2025-02-02 10:00Z'),
  ('O', 'spot_fills', 'f-o1', 0, 'USDT', 30, 'new', '2025-02-02 10:00Z');
INSERT INTO withdrawals (account_uid, order_id, trade_id, coin, status, size, fee, c_time, raw) VALUES
  ('M', 'w-m1', 'tx-m2', 'USDT', 'success', 100, 1, '2025-02-03 10:00Z', '{}'),
  ('U', 'w-u1', 'tx-u3', 'USDT', 'success', 20, 0, '2025-02-03 10:00Z', '{}');
INSERT INTO spot_bills (account_uid, bill_id, coin, group_type, business_type, size, balance, fees, c_time, raw) VALUES
  ('M', '101', 'USDT', 'deposit', 'deposit', 1000, 1000, 0, '2025-02-01 10:00Z', '{}'),
  ('M', '102', 'USDT', 'transaction', 'buy', -500, 500, 0, '2025-02-02 10:00Z', '{}'),
  ('M', '103', 'USDT', 'transaction', 'deduction of handling fee', -0.5, 499.5, 0, '2025-02-02 10:00Z', '{}'),
  ('M', '104', 'BTC', 'transaction', 'buy', 0.01, 0.01, 0, '2025-02-02 10:00Z', '{}'),
  ('M', '105', 'USDT', 'withdraw', 'withdraw', -101, 398.5, 0, '2025-02-03 10:00Z', '{}'),
  ('O', '201', 'BTC', 'deposit', 'deposit', 1, 3, 0, '2025-02-01 10:00Z', '{}'),
  ('O', '202', 'BTC', 'transaction', 'sell', -0.5, 2.5, 0, '2025-02-02 10:00Z', '{}'),
  ('O', '203', 'USDT', 'transaction', 'sell', 30000, 30000, 0, '2025-02-02 10:00Z', '{}'),
  ('O', '204', 'USDT', 'transaction', 'deduction of handling fee', -30, 29970, 0, '2025-02-02 10:00Z', '{}'),
  ('U', '301', 'USDT', 'deposit', 'deposit', 100, 100, 0, '2025-02-01 10:00Z', '{}'),
  ('U', '302', 'USDT', 'deposit', 'deposit', 50, 150, 0, '2025-02-02 11:30Z', '{}'),
  ('U', '303', 'USDT', 'withdraw', 'withdraw', -20, 130, 0, '2025-02-03 10:00Z', '{}');
INSERT INTO margin_records (account_uid, margin_type, id, coin, margin_tax_type, amount, fee, ts, raw) VALUES
  ('U', 'crossed', 'm-u1', 'USDT', 'borrow', 3, 0, '2025-02-04 10:00Z', '{}');
DELETE FROM deposits WHERE account_uid = 'U' AND order_id = 'd-u2';
`;
