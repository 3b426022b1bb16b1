-- The ledger view of sql/0025 with one change: a spot fee's time is fees.c_time instead of
-- coalesce(fees.c_time, spot_fills.c_time). The sync writes every fee row with its record's c_time
-- (src/extract/upsertLean.ts), so fees.c_time is NULL only when the fill's c_time is NULL too and
-- both expressions give the same value; the plain column lets the fees_c_time index serve a time
-- filter on the ledger (the portal's report preview spent most of its time in this branch).
-- Everything else is copied unchanged from sql/0025 (sql/0017's has_unused_sign conditions and
-- the imported-transactions branch included).
CREATE OR REPLACE VIEW ledger AS
SELECT f.account_uid, 'spot'::text AS wallet, leg.coin, f.c_time AS ts, leg.amount,
       CASE WHEN leg.amount >= 0 THEN 'trade_buy' ELSE 'trade_sell' END AS kind,
       'spot_fills'::text AS source, f.trade_id AS source_id, leg.leg, f.order_id, f.symbol,
       NULL::text AS counterparty
FROM spot_fills f
LEFT JOIN LATERAL (
  SELECT q.coin AS quote FROM quote_coins q
  WHERE right(split_part(f.symbol, '_', 1), length(q.coin)) = q.coin
    AND length(split_part(f.symbol, '_', 1)) > length(q.coin)
  ORDER BY length(q.coin) DESC LIMIT 1
) sym ON true
CROSS JOIN LATERAL (VALUES
  ('base', left(split_part(f.symbol, '_', 1), length(split_part(f.symbol, '_', 1)) - length(sym.quote)),
           CASE WHEN lower(f.side) = 'buy' THEN f.size ELSE -f.size END),
  ('quote', sym.quote, CASE WHEN lower(f.side) = 'buy' THEN -f.amount ELSE f.amount END)
) AS leg(leg, coin, amount)
WHERE lower(f.side) IN ('buy', 'sell') AND NOT has_unused_sign(f.problems)

UNION ALL
SELECT fe.account_uid, 'spot', fe.coin, fe.c_time, -fe.paid, 'fee',
       'spot_fills', fe.source_id, 'fee:' || fe.seq, f.order_id, f.symbol, NULL
FROM fees fe
LEFT JOIN spot_fills f ON f.account_uid = fe.account_uid AND f.trade_id = fe.source_id
WHERE fe.source = 'spot_fills' AND NOT coalesce(has_unused_sign(f.problems), false)

UNION ALL
SELECT d.account_uid, 'spot', d.coin, d.c_time, abs(d.size), 'deposit',
       'deposits', d.order_id, 'amount', d.trade_id, NULL, d.from_address
FROM deposits d
WHERE norm_status(d.status) = 'success' AND NOT has_unused_sign(d.problems)

UNION ALL
SELECT w.account_uid, 'spot', w.coin, w.c_time, leg.amount, leg.kind,
       'withdrawals', w.order_id, leg.leg, w.trade_id, NULL, w.to_address
FROM withdrawals w
CROSS JOIN LATERAL (VALUES
  ('amount', 'withdrawal', -abs(w.size)),
  ('fee', 'fee', -abs(w.fee))
) AS leg(leg, kind, amount)
WHERE norm_status(w.status) = 'success' AND (leg.leg = 'amount' OR coalesce(w.fee, 0) <> 0) AND NOT has_unused_sign(w.problems)

UNION ALL
SELECT leg.account_uid, leg.wallet, t.coin, t.ts, leg.amount, leg.kind,
       'transfers', t.transfer_id, leg.leg, t.client_oid, NULL, leg.counterparty
FROM (
  SELECT DISTINCT ON (transfer_id) * FROM transfers
  WHERE norm_status(status) = 'success' AND NOT has_unused_sign(problems)
  ORDER BY transfer_id, account_uid
) t
CROSS JOIN LATERAL (VALUES
  ('from', coalesce(nullif(t.from_user_id, ''), t.account_uid), lower(t.from_type), -abs(t.size), 'transfer_out',
           coalesce(nullif(t.to_user_id, ''), t.account_uid)),
  ('to', coalesce(nullif(t.to_user_id, ''), t.account_uid), lower(t.to_type), abs(t.size), 'transfer_in',
         coalesce(nullif(t.from_user_id, ''), t.account_uid))
) AS leg(leg, account_uid, wallet, amount, kind, counterparty)
WHERE leg.wallet NOT IN ('crossed_margin', 'isolated_margin') AND leg.wallet NOT LIKE '%futures'

UNION ALL
SELECT m.account_uid, m.margin_type || '_margin', m.coin, m.ts, leg.amount, leg.kind,
       'margin_records', m.id, leg.leg, NULL, m.symbol, NULL
FROM margin_records m
CROSS JOIN LATERAL (
  SELECT 'amount' AS leg,
         CASE m.margin_tax_type
           WHEN 'transfer_in' THEN 'transfer_in' WHEN 'transfer_out' THEN 'transfer_out'
           WHEN 'borrow' THEN 'borrow' WHEN 'repay' THEN 'repay'
           WHEN 'interest_repay' THEN 'interest' WHEN 'liquidation_fee' THEN 'liquidation_fee'
           WHEN 'compensate' THEN 'compensate' WHEN 'confiscated' THEN 'confiscated'
           WHEN 'deal_in' THEN 'trade_buy' WHEN 'deal_out' THEN 'trade_sell'
           WHEN 'exchange_in' THEN 'exchange_in' WHEN 'exchange_out' THEN 'exchange_out'
           ELSE 'other' END AS kind,
         CASE WHEN m.margin_tax_type IN ('transfer_in', 'borrow', 'compensate', 'deal_in', 'exchange_in') THEN abs(m.amount)
              WHEN m.margin_tax_type IN ('transfer_out', 'repay', 'interest_repay', 'liquidation_fee', 'confiscated', 'deal_out', 'exchange_out') THEN -abs(m.amount)
              ELSE m.amount END AS amount
  UNION ALL
  SELECT 'fee', 'fee', -abs(m.fee) WHERE coalesce(m.fee, 0) <> 0
) AS leg

UNION ALL
SELECT b.account_uid, futures_wallet(b.product_type), b.coin, b.c_time, leg.amount, leg.kind,
       'futures_bills', b.bill_id, leg.leg, NULL, b.symbol, NULL
FROM futures_bills b
CROSS JOIN LATERAL (
  SELECT 'amount' AS leg,
         CASE WHEN b.business_type LIKE '%settle_fee%' OR b.business_type LIKE '%funding%' THEN 'funding_fee'
              WHEN b.business_type LIKE '%close%' OR b.business_type LIKE '%burst%' OR b.business_type LIKE '%delivery%'
                   OR b.business_type LIKE '%liquidat%' THEN 'realized_pnl'
              WHEN b.business_type LIKE '%trans%' THEN CASE WHEN b.amount >= 0 THEN 'transfer_in' ELSE 'transfer_out' END
              WHEN b.business_type LIKE '%fee%' THEN 'fee'
              ELSE 'other' END AS kind,
         b.amount AS amount
  WHERE coalesce(b.amount, 0) <> 0
  UNION ALL
  SELECT 'fee', 'fee', b.fee WHERE coalesce(b.fee, 0) <> 0
) AS leg

UNION ALL
-- Imported transactions (from sql/0025).
SELECT i.wallet, i.wallet, leg.coin, i.ts, leg.amount, leg.kind,
       'imported_transactions', i.source_id, leg.leg, i.tx_hash, NULL, NULL
FROM imported_transactions i
CROSS JOIN LATERAL (VALUES
  ('sent', i.sent_currency, -i.sent_amount, CASE WHEN i.received_amount IS NULL THEN 'withdrawal' ELSE 'trade_sell' END),
  ('received', i.received_currency, i.received_amount, CASE WHEN i.sent_amount IS NULL THEN 'deposit' ELSE 'trade_buy' END),
  ('fee', i.fee_currency, -i.fee_amount, 'fee')
) AS leg(leg, coin, amount, kind)
WHERE leg.amount IS NOT NULL;

COMMENT ON VIEW ledger IS 'Every settled balance change: one row per account, wallet, coin and time, signed amount (> 0 in); imported transactions under their wallet name. Rules: docs/ledger.md, docs/valuation.md.';
