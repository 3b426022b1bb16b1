-- Prices, FX rates and transactions from elsewhere: what the valuation (sql/0026, docs/valuation.md)
-- reads besides the ledger.
--
--   imported_files         one row per file a user brought (import fx / import transactions),
--                          keyed by the file's SHA-256, so importing the same file again is a no-op
--   fx_rates               ECB euro reference rates as imported: units of `currency` per 1 EUR
--   fx_rates_daily         the same, one row per calendar day and currency, a day without a rate
--                          carrying the last earlier rate (rate_day says which day it came from)
--   stablecoins            coins valued through their own market price, else at 1 unit of `peg`
--   price_symbols          the one spot pair whose candles price each coin (chosen by the prices stream)
--   price_candles          exchange candles of those pairs (granularity 1h), as the API sent them
--   price_coverage         the time ranges already asked for, so the prices stream never re-reads them
--   imported_transactions  Koinly universal CSV rows, each tied to its file's SHA-256 and line

CREATE TABLE imported_files (
  sha256      text        PRIMARY KEY,
  kind        text        NOT NULL CHECK (kind IN ('fx', 'transactions')),
  file_name   text        NOT NULL,
  wallet      text,
  rows        integer     NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fx_rates (
  currency    text    NOT NULL,
  day         date    NOT NULL,
  per_eur     numeric NOT NULL CHECK (per_eur > 0),
  file_sha256 text    NOT NULL REFERENCES imported_files (sha256),
  line        integer NOT NULL,
  PRIMARY KEY (currency, day)
);

CREATE TABLE fx_rates_daily (
  currency text    NOT NULL,
  day      date    NOT NULL,
  per_eur  numeric NOT NULL,
  rate_day date    NOT NULL,
  PRIMARY KEY (currency, day)
);
COMMENT ON TABLE fx_rates_daily IS 'fx_rates filled to every calendar day (last earlier rate), EUR = 1; rebuilt by each import fx. Rules: docs/valuation.md.';

CREATE TABLE stablecoins (
  coin text PRIMARY KEY,
  peg  text NOT NULL DEFAULT 'USD'
);
INSERT INTO stablecoins (coin) VALUES ('USDT'), ('USDC'), ('USDE'), ('FDUSD'), ('TUSD'), ('DAI'), ('SUSDT'), ('SUSDC');

CREATE TABLE price_symbols (
  coin       text        PRIMARY KEY,
  symbol     text        NOT NULL,
  quote_coin text        NOT NULL,
  chosen_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE price_candles (
  symbol       text        NOT NULL,
  granularity  text        NOT NULL,
  ts           timestamptz NOT NULL,
  open         numeric     NOT NULL,
  high         numeric     NOT NULL,
  low          numeric     NOT NULL,
  close        numeric     NOT NULL,
  base_volume  numeric,
  quote_volume numeric,
  usdt_volume  numeric,
  raw          jsonb       NOT NULL,
  run_id       bigint,
  fetched_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (symbol, granularity, ts)
);
COMMENT ON TABLE price_candles IS 'Exchange candles (ts = candle open time) of the price_symbols pairs, read by the prices stream.';

CREATE TABLE price_coverage (
  symbol      text        NOT NULL,
  granularity text        NOT NULL,
  range_from  timestamptz NOT NULL,
  range_to    timestamptz NOT NULL,
  run_id      bigint,
  PRIMARY KEY (symbol, granularity, range_from, range_to)
);

CREATE TABLE imported_transactions (
  file_sha256        text        NOT NULL REFERENCES imported_files (sha256),
  line               integer     NOT NULL,
  source_id          text        GENERATED ALWAYS AS (file_sha256 || ':' || line) STORED,
  wallet             text        NOT NULL,
  ts                 timestamptz NOT NULL,
  sent_amount        numeric     CHECK (sent_amount > 0),
  sent_currency      text,
  received_amount    numeric     CHECK (received_amount > 0),
  received_currency  text,
  fee_amount         numeric     CHECK (fee_amount > 0),
  fee_currency       text,
  net_worth_amount   numeric     CHECK (net_worth_amount >= 0),
  net_worth_currency text,
  label              text,
  description        text,
  tx_hash            text,
  raw                jsonb       NOT NULL,
  PRIMARY KEY (file_sha256, line)
);
CREATE UNIQUE INDEX imported_transactions_source_id ON imported_transactions (source_id);
CREATE INDEX imported_transactions_wallet ON imported_transactions (wallet, ts);
COMMENT ON TABLE imported_transactions IS 'Koinly universal CSV rows brought by tradeledger import transactions; in the ledger under their wallet name.';

-- The ledger (sql/0011, with sql/0017's has_unused_sign conditions) plus imported transactions.
-- Only the last UNION ALL branch is new: an
-- imported row's account_uid and wallet are both the wallet name given at import, so
-- `--account NAME` selects it like a UID. Legs: sent (< 0), received (> 0), fee (< 0); kind
-- trade_sell/trade_buy when both sides are given, else withdrawal/deposit; order_id is the TxHash.
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
SELECT fe.account_uid, 'spot', fe.coin, coalesce(fe.c_time, f.c_time), -fe.paid, 'fee',
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
-- Imported transactions (new in sql/0025).
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
