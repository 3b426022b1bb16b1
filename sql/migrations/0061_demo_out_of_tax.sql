-- Demo (paper) trading out of every tax figure by default (issue 20, item 1).
--
-- Where the tool knows an account is demo: the config marks it ("demo": true, or
-- TRADELEDGER_DEMO=1: a key that must send `paptrading: 1`), and every sync records that in
-- accounts.kind = 'demo' (src/extract/syncRunRecord.ts). The exchange refuses a demo key without
-- the header and a live key with it (40099), so the config cannot be wrong about it without the
-- sync failing. The records say it too: a demo key trades only the demo product types
-- SUSDT-FUTURES, SCOIN-FUTURES and SUSDC-FUTURES (spec section 4, demo rules), whose ledger
-- wallets are susdt_futures, scoin_futures and susdc_futures. A ledger row is demo when either
-- says so, so a demo record counts as demo even under an account the config did not mark.
--
--   ledger.demo            new last column of the ledger view (native CSVs keep the rows, marked)
--   demo_accounts          the accounts left out of tax outputs, and why (manifest, summary)
--   ledger_valued(fiat, from, to, include_demo DEFAULT false)
--                          demo rows left out unless include_demo; when included they are
--                          valued 0 with price_source 'demo' (never as the real coin: SBTC is not
--                          BTC; docs/valuation.md), and the new last column `demo` marks them
--   tax_transactions(from, to, account, include_demo DEFAULT false)
--                          the same choice for every tax-tool file; new last column `demo`
--   gains_runs.include_demo  part of a run's key, so a run with demo never replaces one without
--
-- The view own_movement_imbalance depends on tax_transactions and is recreated unchanged (it
-- reads the default: without demo rows).

COMMENT ON COLUMN accounts.kind IS 'main | sub | demo. demo: a demo-trading (paper) account, from the config ("demo": true / TRADELEDGER_DEMO=1: its key sends paptrading: 1). Its rows stay in the raw tables and the ledger (ledger.demo) and are left out of every tax output unless asked (--include-demo).';

-- The ledger view of sql/0050, unchanged, with one more column: demo.
CREATE OR REPLACE VIEW ledger AS
SELECT b.*, (b.account_uid IN (SELECT da.uid FROM accounts da WHERE da.kind = 'demo') OR b.wallet IN ('susdt_futures', 'scoin_futures', 'susdc_futures')) AS demo
FROM (
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
  WHERE leg.amount IS NOT NULL
) b;

COMMENT ON VIEW ledger IS 'Every settled balance change: one row per account, wallet, coin and time, signed amount (> 0 in); imported transactions under their wallet name; demo marks demo-trading rows. Rules: docs/ledger.md, docs/valuation.md.';
COMMENT ON COLUMN ledger.demo IS 'true for a demo-trading (paper) row: its account is a demo account (accounts.kind = ''demo'', from the config) or its wallet is a demo product type (susdt_futures, scoin_futures, susdc_futures). Kept in the ledger and the native CSVs; left out of tax_transactions, ledger_valued, every tax-tool file and gains unless include_demo / --include-demo.';

-- The accounts whose rows the tax outputs leave out by default, and why. An account the config
-- marks demo, plus any other account with records in a demo product type (only its demo wallets
-- are left out then). Read by the report manifest and the gains summary.
CREATE VIEW demo_accounts AS
SELECT a.uid, a.name,
       'demo-trading (paper) account: the config marks it demo ("demo": true or TRADELEDGER_DEMO=1; its key sends paptrading: 1); its coins (SUSDT, SUSDC, SBTC, SETH, SEOS) are virtual, so none of its rows is a taxable event'::text AS reason
FROM accounts a WHERE a.kind = 'demo'
UNION ALL
SELECT s.account_uid, coalesce(min(a.name), s.account_uid),
       'records in demo product types (' || string_agg(DISTINCT s.partition, ', ' ORDER BY s.partition) || '): those wallets are demo trading with virtual coins and are left out; the account''s other rows are kept'
FROM sync_state s LEFT JOIN accounts a ON a.uid = s.account_uid
WHERE upper(s.partition) IN ('SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES') AND coalesce(a.kind, '') <> 'demo'
GROUP BY s.account_uid;

COMMENT ON COLUMN demo_accounts.uid IS 'the account UID (accounts.uid, or sync_state.account_uid for one with demo product-type records)';
COMMENT ON COLUMN demo_accounts.name IS 'the account''s name in the config';
COMMENT ON COLUMN demo_accounts.reason IS 'why its rows (or its demo wallets) count as demo trading, as the manifest and summary say it';
COMMENT ON VIEW demo_accounts IS 'Accounts whose demo-trading rows (ledger.demo) the tax outputs leave out unless --include-demo, with the reason the report manifest and gains summary give.';

-- ledger_valued(fiat, from, to, include_demo): sql/0052's function, digit for digit for every
-- row that is not demo, with a fourth parameter and a last column `demo`. Demo rows are left out
-- unless p_include_demo; included, each is valued 0 (unit_price 0, value 0, price_source 'demo',
-- no candle, no FX day): a demo coin is virtual, and pricing SBTC as BTC (the prices stream reads
-- a demo coin's candles through its real coin, for charts) would put paper trading's figures into
-- a tax output. docs/valuation.md gives the reasoning.
DROP FUNCTION ledger_valued(text, timestamptz, timestamptz);
CREATE FUNCTION ledger_valued(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity', p_include_demo boolean DEFAULT false)
RETURNS TABLE (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text,
  source_id text, leg text, order_id text, symbol text, counterparty text,
  fiat text, unit_price numeric, value numeric, price_source text, price_time timestamptz,
  stablecoin_basis text, fx_day date, demo boolean
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH l0 AS (
    -- The ledger's rows with what valuing them needs: the fill's amount and price, the Net Worth,
    -- the currency an FX rate is needed for (ccy: a Net Worth's, a fill's quote, else the coin),
    -- which part of a fill the row is (fill_part: a leg, a fee in the quote or in the base coin;
    -- NULL for a fee in a third coin such as BGB, which the fill's prices do not value), whether
    -- the fill's quote is a stablecoin, and the coin whose candle prices the row (ccoin: the
    -- stablecoin quote for a fill's legs and own-coin fees, else the row's coin).
    --
    -- Every ledger row but the spot fills' and the imported transactions', as the ledger view
    -- gives them (PostgreSQL drops the view's branches this filter excludes):
    SELECT l.account_uid, l.wallet, l.coin, l.ts, l.amount, l.kind, l.source, l.source_id, l.leg,
           l.order_id, l.symbol, l.counterparty,
           NULL::numeric AS fill_amount, NULL::numeric AS price_avg, NULL::numeric AS nw, l.coin AS ccy,
           NULL::text AS fill_part, false AS q_stable, l.coin AS ccoin, false AS is_fee
    FROM ledger l
    WHERE l.source NOT IN ('spot_fills', 'imported_transactions') AND l.ts >= p_from AND l.ts < p_to
    UNION ALL
    -- A spot fill's two legs: the ledger view's first branch (sql/0050), plus the fill's columns.
    SELECT f.account_uid, 'spot'::text, leg.coin, f.c_time, leg.amount,
           CASE WHEN leg.amount >= 0 THEN 'trade_buy' ELSE 'trade_sell' END,
           'spot_fills'::text, f.trade_id, leg.leg, f.order_id, f.symbol, NULL::text,
           f.amount, f.price_avg, NULL::numeric, sym.quote,
           CASE WHEN sym.quote IS NOT NULL THEN 'leg' END, coalesce(sym.q_stable, false),
           CASE WHEN sym.q_stable THEN sym.quote ELSE leg.coin END, false
    FROM spot_fills f
    -- the symbol's quote coin (the ledger view's rule), its base coin and whether the quote is a
    -- stablecoin; PostgreSQL caches this per symbol (Memoize)
    LEFT JOIN LATERAL (
      SELECT q.coin AS quote,
             left(split_part(f.symbol, '_', 1), length(split_part(f.symbol, '_', 1)) - length(q.coin)) AS base,
             q.coin IN (SELECT s.coin FROM stablecoins s) AS q_stable
      FROM quote_coins q
      WHERE right(split_part(f.symbol, '_', 1), length(q.coin)) = q.coin
        AND length(split_part(f.symbol, '_', 1)) > length(q.coin)
      ORDER BY length(q.coin) DESC LIMIT 1
    ) sym ON true
    CROSS JOIN LATERAL (VALUES
      ('base', sym.base, CASE WHEN lower(f.side) = 'buy' THEN f.size ELSE -f.size END),
      ('quote', sym.quote, CASE WHEN lower(f.side) = 'buy' THEN -f.amount ELSE f.amount END)
    ) AS leg(leg, coin, amount)
    -- the view's `NOT has_unused_sign(f.problems)`, with the function called only when there are
    -- problems at all (it is false for none; a call costs microseconds, and fills rarely have any)
    WHERE lower(f.side) IN ('buy', 'sell') AND (cardinality(f.problems) = 0 OR NOT has_unused_sign(f.problems))
      AND f.c_time >= p_from AND f.c_time < p_to
    UNION ALL
    -- A spot fill's fees: the ledger view's second branch (sql/0050), plus the fill's columns.
    SELECT fe.account_uid, 'spot', fe.coin, fe.c_time, -fe.paid, 'fee',
           'spot_fills', fe.source_id, 'fee:' || fe.seq, f.order_id, f.symbol, NULL,
           f.amount, f.price_avg, NULL, sym.quote,
           CASE WHEN sym.quote IS NULL THEN NULL WHEN fe.coin = sym.quote THEN 'quote_fee' WHEN fe.coin = sym.base THEN 'base_fee' END,
           coalesce(sym.q_stable, false),
           CASE WHEN sym.q_stable AND fe.coin IN (sym.quote, sym.base) THEN sym.quote ELSE fe.coin END, true
    FROM fees fe
    LEFT JOIN spot_fills f ON f.account_uid = fe.account_uid AND f.trade_id = fe.source_id
    LEFT JOIN LATERAL (
      SELECT q.coin AS quote,
             left(split_part(f.symbol, '_', 1), length(split_part(f.symbol, '_', 1)) - length(q.coin)) AS base,
             q.coin IN (SELECT s.coin FROM stablecoins s) AS q_stable
      FROM quote_coins q
      WHERE right(split_part(f.symbol, '_', 1), length(q.coin)) = q.coin
        AND length(split_part(f.symbol, '_', 1)) > length(q.coin)
      ORDER BY length(q.coin) DESC LIMIT 1
    ) sym ON true
    -- the view's `NOT coalesce(has_unused_sign(f.problems), false)`, calling it only when needed
    -- (no fill: NULL problems, for which the function is false too)
    WHERE fe.source = 'spot_fills' AND (coalesce(cardinality(f.problems), 0) = 0 OR NOT coalesce(has_unused_sign(f.problems), false))
      AND fe.c_time >= p_from AND fe.c_time < p_to
    UNION ALL
    -- Imported transactions: the ledger view's last branch (sql/0050), plus the Net Worth of a
    -- sent or received leg and the currency it is in.
    SELECT i.wallet, i.wallet, leg.coin, i.ts, leg.amount, leg.kind,
           'imported_transactions', i.source_id, leg.leg, i.tx_hash, NULL, NULL,
           NULL, NULL, CASE WHEN leg.leg <> 'fee' THEN i.net_worth_amount END,
           CASE WHEN leg.leg <> 'fee' AND i.net_worth_amount IS NOT NULL THEN i.net_worth_currency ELSE leg.coin END,
           NULL, false, leg.coin, false
    FROM imported_transactions i
    CROSS JOIN LATERAL (VALUES
      ('sent', i.sent_currency, -i.sent_amount, CASE WHEN i.received_amount IS NULL THEN 'withdrawal' ELSE 'trade_sell' END),
      ('received', i.received_currency, i.received_amount, CASE WHEN i.sent_amount IS NULL THEN 'deposit' ELSE 'trade_buy' END),
      ('fee', i.fee_currency, -i.fee_amount, 'fee')
    ) AS leg(leg, coin, amount, kind)
    WHERE leg.amount IS NOT NULL AND i.ts >= p_from AND i.ts < p_to
  ), l AS (
    -- demo marks a demo-trading row (the ledger view's demo column, sql/0061); left out here
    -- unless asked for, so no tax output sees one by default
    SELECT l0.*, (l0.account_uid IN (SELECT da.uid FROM accounts da WHERE da.kind = 'demo') OR l0.wallet IN ('susdt_futures', 'scoin_futures', 'susdc_futures')) AS demo
    FROM l0
    WHERE p_include_demo OR NOT (l0.account_uid IN (SELECT da.uid FROM accounts da WHERE da.kind = 'demo') OR l0.wallet IN ('susdt_futures', 'scoin_futures', 'susdc_futures'))
  ), cand AS (
    SELECT ps.coin, c.ts, c.close FROM price_candles c JOIN price_symbols ps ON ps.symbol = c.symbol
    WHERE c.granularity = '1h'
  ), r AS (
    SELECT l.*,
           -- fiat per USD on the row's day, and the day of the rates used; for USD neither needs
           -- the join (the CASEs fold to constants), so PostgreSQL leaves the join out
           CASE WHEN upper(p_fiat) = 'USD' THEN 1 ELSE d.per_usd END AS fpu,
           CASE WHEN upper(p_fiat) = 'USD' THEN NULL ELSE greatest(d.rate_day, d.usd_rate_day) END AS rate_day,
           -- fiat per unit of the row's own currency, looked up only when that currency is fiat
           CASE WHEN l.ccy = upper(p_fiat) THEN 1
                WHEN l.ccy IN (SELECT e.currency FROM fx_rates e UNION ALL SELECT 'EUR') THEN
                  ledger_fx_per_unit(upper(p_fiat), l.ccy, (l.ts AT TIME ZONE 'UTC')::date) END AS fpc,
           cb.close, cb.ts AS candle_ts
    FROM l
    LEFT JOIN fx_rates_daily d ON d.currency = upper(p_fiat) AND d.day = (l.ts AT TIME ZONE 'UTC')::date
    LEFT JOIN cand cb ON cb.coin = l.ccoin AND cb.ts = date_bin('1 hour', l.ts, '2000-01-01Z')
    OFFSET 0 -- computes the columns above once per row
  ), k AS (
    SELECT r.*, r.fpc IS NOT NULL AS has_ccy,
      -- the rule, first that applies (docs/valuation.md)
      CASE
        WHEN r.demo THEN 0                                                          -- demo: virtual coins, no fiat value
        WHEN r.fpc IS NOT NULL AND r.nw IS NOT NULL THEN 1                          -- imported
        WHEN r.fpc IS NOT NULL AND r.source <> 'spot_fills' THEN 2                  -- fiat
        WHEN r.fpc IS NOT NULL AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 3 END  -- fill_price / fiat_quote
        WHEN r.fpu IS NULL THEN 8                                                   -- unpriced: no rate from USD
        WHEN r.q_stable AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 4 END  -- fill_price / stablecoin_quote
        WHEN r.coin IN (SELECT s.coin FROM stablecoins s) THEN 6                    -- stablecoin
        WHEN r.close IS NOT NULL THEN 7                                             -- candle
        ELSE 8
      END AS rule,
      -- fiat per unit of a stablecoin (its close, else 1 USD) or of a coin with a candle; in USD
      -- no multiplication by 1 (x * 1 is x, with the same digits)
      CASE WHEN upper(p_fiat) = 'USD' THEN coalesce(r.close, 1) ELSE coalesce(r.close, 1) * r.fpu END AS cfp
    FROM r
    OFFSET 0 -- computes the rule once per row; without it each use below repeats it
  )
  SELECT k.account_uid, k.wallet, k.coin, k.ts, k.amount, k.kind, k.source, k.source_id, k.leg,
         k.order_id, k.symbol, k.counterparty, upper(p_fiat),
         CASE k.rule
           WHEN 0 THEN 0
           WHEN 1 THEN CASE WHEN k.amount <> 0 THEN k.nw * k.fpc / abs(k.amount) END
           WHEN 2 THEN k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.fpc WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.fpc / abs(k.amount) END
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.cfp WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.cfp / abs(k.amount) END
           WHEN 5 THEN k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE k.cfp END
           WHEN 6 THEN k.cfp
           WHEN 7 THEN k.cfp
         END,
         CASE k.rule
           WHEN 0 THEN 0
           WHEN 1 THEN sign(k.amount) * k.nw * k.fpc
           WHEN 2 THEN k.amount * k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.fpc
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.cfp
           WHEN 5 THEN k.amount * k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE k.cfp END
           WHEN 6 THEN k.amount * k.cfp
           WHEN 7 THEN k.amount * k.cfp
         END,
         CASE WHEN k.rule = 0 THEN 'demo' ELSE (ARRAY['imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced'])[k.rule] END,
         CASE WHEN k.rule IN (6, 7) OR (k.rule IN (4, 5) AND NOT k.has_ccy) THEN k.candle_ts END,
         CASE WHEN k.rule IN (4, 6) OR (k.rule = 5 AND NOT k.has_ccy) THEN CASE WHEN k.close IS NULL THEN 'par' ELSE 'market' END END,
         -- the day of the rates used; for a rule that used the row's own currency, looked up
         -- only for those rows
         CASE WHEN k.rule = 0 THEN NULL
              WHEN k.rule IN (1, 2, 3) OR (k.rule = 5 AND k.has_ccy) THEN
                CASE WHEN k.ccy <> upper(p_fiat) THEN ledger_fx_rate_day(upper(p_fiat), k.ccy, (k.ts AT TIME ZONE 'UTC')::date) END
              WHEN k.rule <> 8 AND upper(p_fiat) <> 'USD' THEN k.rate_day END,
         k.demo
  FROM k
$$;

COMMENT ON FUNCTION ledger_valued(text, timestamptz, timestamptz, boolean) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used; demo-trading rows left out unless p_include_demo, and then valued 0 (price_source demo). Rules: docs/valuation.md.';

-- tax_transactions(from, to, account, include_demo): sql/0053's function with a fourth
-- parameter and a last column `demo`; demo-trading rows (ledger.demo) are left out unless
-- p_include_demo. own_movement_imbalance (sql/0020) reads it and is recreated as it was.
DROP VIEW own_movement_imbalance;
DROP FUNCTION tax_transactions(timestamptz, timestamptz, text);
CREATE FUNCTION tax_transactions(p_from timestamptz, p_to timestamptz, p_account text, p_include_demo boolean DEFAULT false)
RETURNS TABLE (
  ts timestamptz, account_uid text, wallet text, kind text, source text, source_id text,
  sent_amount numeric, sent_coin text, received_amount numeric, received_coin text,
  fee_amount numeric, fee_coin text, ref text, symbol text, counterparty text, own_account boolean, demo boolean
)
LANGUAGE sql STABLE AS $$
  WITH l AS (
    SELECT ledger.*, is_own_account_movement(ledger.account_uid, ledger.source, ledger.kind, ledger.counterparty, p_account) AS own
    FROM ledger
    WHERE ledger.ts >= p_from AND ledger.ts < p_to AND (p_account = '' OR ledger.account_uid = p_account)
      AND (p_include_demo OR NOT ledger.demo)
  ), grouped AS (
    SELECT l.account_uid, l.source, l.source_id, min(l.ts) AS ts, min(l.wallet) AS wallet,
           -sum(l.amount) FILTER (WHERE l.kind <> 'fee' AND l.amount < 0) AS sent_amount,
           min(l.coin) FILTER (WHERE l.kind <> 'fee' AND l.amount < 0) AS sent_coin,
           sum(l.amount) FILTER (WHERE l.kind <> 'fee' AND l.amount >= 0) AS received_amount,
           min(l.coin) FILTER (WHERE l.kind <> 'fee' AND l.amount >= 0) AS received_coin,
           count(*) FILTER (WHERE l.kind = 'fee') AS fee_n,
           count(*) FILTER (WHERE l.kind = 'fee' AND l.amount < 0) AS fee_charges,
           -sum(l.amount) FILTER (WHERE l.kind = 'fee') AS fee_amount,
           min(l.coin) FILTER (WHERE l.kind = 'fee') AS fee_coin,
           min(l.order_id) AS ref, min(l.symbol) AS symbol,
           min(l.counterparty) FILTER (WHERE l.kind <> 'fee') AS counterparty,
           bool_or(l.own) AS own, bool_or(l.demo) AS demo
    FROM l WHERE l.source IN ('spot_fills', 'withdrawals', 'imported_transactions')
    GROUP BY l.account_uid, l.source, l.source_id
  ), folded AS (
    -- An imported line with only a fee keeps it as its own fee row (there is no side to fold it into).
    SELECT g.*, (g.fee_n = 1 AND g.fee_charges = 1 AND NOT g.own
                 AND (g.source <> 'imported_transactions' OR g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL)) AS fold
    FROM grouped g
  )
  SELECT g.ts, g.account_uid, g.wallet,
         CASE WHEN g.source = 'spot_fills' THEN 'trade'
              WHEN g.source = 'withdrawals' THEN 'withdrawal'
              WHEN g.sent_amount IS NOT NULL AND g.received_amount IS NOT NULL THEN 'trade'
              WHEN g.received_amount IS NOT NULL THEN 'deposit'
              ELSE 'withdrawal' END,
         g.source, g.source_id, g.sent_amount, g.sent_coin, g.received_amount, g.received_coin,
         CASE WHEN g.fold THEN g.fee_amount END, CASE WHEN g.fold THEN g.fee_coin END,
         g.ref, g.symbol, g.counterparty, g.own, g.demo
  FROM folded g
  WHERE g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL OR g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, 'fee', l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, NULL, false, l.demo
  FROM l JOIN folded g ON g.account_uid = l.account_uid AND g.source = l.source AND g.source_id = l.source_id
  WHERE l.kind = 'fee' AND NOT g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, l.kind, l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, l.counterparty, l.own, l.demo
  FROM l WHERE l.source NOT IN ('spot_fills', 'withdrawals', 'imported_transactions')
$$;


CREATE VIEW own_movement_imbalance AS
SELECT coalesce(sent_coin, received_coin) AS coin,
       sum(coalesce(received_amount, 0) - coalesce(sent_amount, 0)) AS net,
       count(*) AS legs, min(ts) AS first_ts, max(ts) AS last_ts
FROM tax_transactions('-infinity', 'infinity', '')
WHERE own_account
GROUP BY 1
HAVING sum(coalesce(received_amount, 0) - coalesce(sent_amount, 0)) <> 0;

COMMENT ON VIEW own_movement_imbalance IS 'Per coin: own-account movement legs (E19, margin transfer_in/out, futures trans_*, internal deposits/withdrawals between exported accounts) that do not net to zero.';

-- A gains run with demo rows is a different run from one without: include_demo joins its key.
ALTER TABLE gains_runs ADD COLUMN include_demo boolean NOT NULL DEFAULT false;
ALTER TABLE gains_runs DROP CONSTRAINT gains_runs_rules_tax_year_fiat_tz_account_pools_key;
ALTER TABLE gains_runs ADD CONSTRAINT gains_runs_key UNIQUE (rules, tax_year, fiat, tz, account, pools, include_demo);
COMMENT ON COLUMN gains_runs.include_demo IS 'true when the run was asked to include demo-trading rows (--include-demo); they are valued 0, so they add disposals and income rows but no fiat figure.';
