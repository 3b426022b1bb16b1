-- ledger_valued(fiat), same columns, rules and values as sql/0027 (digit for digit), with fewer
-- joins per row (issue 11's benchmark: valuing the ledger at >= 0.5x the speed of a plain COPY of
-- it; measured in BENCHMARKS.md). What changed, and why:
--
--   * No join back to spot_fills. sql/0027 read the `ledger` view and joined each of its rows to
--     spot_fills by (account, trade id) for the fill's quote amount and price: a hash join of the
--     whole ledger against every fill, which spilled to disk at the default work_mem. Here a
--     fill's two legs and its fees are built from spot_fills and fees directly, by the same SQL as
--     the ledger view's first two branches (sql/0050), so they carry the fill's amount, price,
--     quote and base coin as they come; likewise the imported transactions (the view's last
--     branch) carry their Net Worth, instead of two subqueries per row. Every other row is the
--     ledger view's own (`WHERE source NOT IN (...)`, which PostgreSQL applies by dropping the
--     view's branches it excludes). test/valuation/valuedLedgerRows.test.ts checks that the ledger
--     columns of ledger_valued are exactly the ledger view's rows, so the two cannot drift apart
--     unnoticed, and that every value equals sql/0027's.
--   * In those branches the view's has_unused_sign(problems) test (a SQL function with a
--     subquery, which PostgreSQL cannot inline: several microseconds a call, twice per fill) is
--     skipped for rows without any problem, for which it is false. The view itself is unchanged.
--   * What depends only on the branch (which part of a fill a row is, whose candle prices it) is
--     worked out in the branch; a symbol's quote, base coin and "quote is a stablecoin" in the
--     lateral subquery the ledger view already uses for the quote, which PostgreSQL caches per
--     symbol (Memoize).
--   * The rate of a row's own currency (an imported Net Worth's, a fill's quote, a fiat coin) is
--     looked up only for rows whose currency is fiat ("is it fiat" is a hash probe, `IN (SELECT
--     ...)`), by the two small functions below. sql/0027 joined every row to fx_rates_daily for
--     it. They are functions rather than subqueries because the planner costs a subquery for every
--     row even when a CASE runs it for few: that pushed the plan's cost past
--     jit_optimize_above_cost, and JIT optimisation then cost seconds per call.
--   * In USD the day's rate is not joined at all: every use of it is a CASE on the fiat that
--     folds to a constant, and PostgreSQL removes a LEFT JOIN whose columns are not used. In USD
--     no value is multiplied by 1 either (x * 1 is x with the same digits).
--   * PARALLEL SAFE (it only reads), so a COPY of it may use parallel workers for the fills'
--     scan as a COPY of the ledger does; an unmarked function made the whole query serial.
--
-- Rules and columns: sql/0026, sql/0027 and docs/valuation.md.

-- Fiat per unit of a fiat currency on a day, and the day of the ECB rates that gave it (the
-- earlier of the two currencies' rate days); NULL when either has no rate that day. Called by
-- ledger_valued for the rows whose currency is fiat only (functions, not subqueries, so that the
-- planner does not cost a lookup for every row; see BENCHMARKS.md, valuation).
CREATE FUNCTION ledger_fx_per_unit(p_fiat text, p_ccy text, p_day date) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT fd.per_eur / c.per_eur
  FROM fx_rates_daily c JOIN fx_rates_daily fd ON fd.currency = p_fiat AND fd.day = c.day
  WHERE c.currency = p_ccy AND c.day = p_day
$$;
CREATE FUNCTION ledger_fx_rate_day(p_fiat text, p_ccy text, p_day date) RETURNS date
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT least(greatest(fd.rate_day, fd.usd_rate_day), c.rate_day)
  FROM fx_rates_daily c JOIN fx_rates_daily fd ON fd.currency = p_fiat AND fd.day = c.day
  WHERE c.currency = p_ccy AND c.day = p_day
$$;

CREATE OR REPLACE FUNCTION ledger_valued(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity')
RETURNS TABLE (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text,
  source_id text, leg text, order_id text, symbol text, counterparty text,
  fiat text, unit_price numeric, value numeric, price_source text, price_time timestamptz,
  stablecoin_basis text, fx_day date
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH l AS (
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
           WHEN 1 THEN CASE WHEN k.amount <> 0 THEN k.nw * k.fpc / abs(k.amount) END
           WHEN 2 THEN k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.fpc WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.fpc / abs(k.amount) END
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.cfp WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.cfp / abs(k.amount) END
           WHEN 5 THEN k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE k.cfp END
           WHEN 6 THEN k.cfp
           WHEN 7 THEN k.cfp
         END,
         CASE k.rule
           WHEN 1 THEN sign(k.amount) * k.nw * k.fpc
           WHEN 2 THEN k.amount * k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.fpc
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.cfp
           WHEN 5 THEN k.amount * k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE k.cfp END
           WHEN 6 THEN k.amount * k.cfp
           WHEN 7 THEN k.amount * k.cfp
         END,
         (ARRAY['imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced'])[k.rule],
         CASE WHEN k.rule IN (6, 7) OR (k.rule IN (4, 5) AND NOT k.has_ccy) THEN k.candle_ts END,
         CASE WHEN k.rule IN (4, 6) OR (k.rule = 5 AND NOT k.has_ccy) THEN CASE WHEN k.close IS NULL THEN 'par' ELSE 'market' END END,
         -- the day of the rates used; for a rule that used the row's own currency, looked up
         -- only for those rows
         CASE WHEN k.rule IN (1, 2, 3) OR (k.rule = 5 AND k.has_ccy) THEN
                CASE WHEN k.ccy <> upper(p_fiat) THEN ledger_fx_rate_day(upper(p_fiat), k.ccy, (k.ts AT TIME ZONE 'UTC')::date) END
              WHEN k.rule <> 8 AND upper(p_fiat) <> 'USD' THEN k.rate_day END
  FROM k
$$;

COMMENT ON FUNCTION ledger_valued(text, timestamptz, timestamptz) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used. Rules: docs/valuation.md.';
