-- Variants of ledger_valued measured for issue 11 and NOT adopted (no migration uses this file).
-- Load into a database kept by valuation.bench.ts (BENCH_KEEP=1) and pair them with
-- copyCpu.bench.ts; results in BENCHMARKS.md, valuation section:
--   psql "$PGURL" -f test/bench/valuationVariants.sql
--   SELECT count(*) FROM (SELECT * FROM ledger_valued('GBP') EXCEPT ALL SELECT * FROM ledger_valued_lead('GBP')) x;  -- 0

-- ledger_valued_lead(fiat): TRIED AND DROPPED (slower, see BENCHMARKS.md). Same columns and values
-- as ledger_valued (migration 0027) (issue 11's benchmark: valuing the ledger at >= 0.5x the speed of a plain COPY of it; measured
-- in BENCHMARKS.md). migration 0027 joined every ledger row back to spot_fills by (account, trade id)
-- for a fill's quote amount and price: a hash join of the whole ledger against every fill, which
-- spilled to disk at the default work_mem. The ledger already holds what that join fetched:
--   * a fill's quote and base coin and whether the quote is a stablecoin follow from the row's
--     own `symbol` (a join on the few distinct symbols, not on the fills);
--   * a quote leg's |amount| is the fill's |quote amount|, and the base leg is followed by its
--     quote leg (the ledger view emits a fill's two legs together), so lead() over the rows as
--     they come gives the base leg its fill's quote amount without sorting. Where the next row is
--     not that quote leg (any other row order), the amount is looked up in spot_fills by primary
--     key for that row only, so the result never depends on row order;
--   * a fill's price (price_avg) is needed only by a fee paid in the base coin (rule fill_price):
--     looked up by primary key for those rows only.
-- The ledger view itself is unchanged. Rules and columns: docs/valuation.md.

CREATE OR REPLACE FUNCTION ledger_valued_lead(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity')
RETURNS TABLE (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text,
  source_id text, leg text, order_id text, symbol text, counterparty text,
  fiat text, unit_price numeric, value numeric, price_source text, price_time timestamptz,
  stablecoin_basis text, fx_day date
)
LANGUAGE sql STABLE AS $$
  WITH syms AS MATERIALIZED (
    -- One row per spot symbol: its quote and base coin, and whether the quote is a stablecoin.
    SELECT s.symbol, q.quote, coalesce(q.quote = ANY (st.coins), false) AS q_stable,
           left(split_part(s.symbol, '_', 1), length(split_part(s.symbol, '_', 1)) - length(q.quote)) AS base
    FROM (SELECT DISTINCT spot_fills.symbol FROM spot_fills) s
    CROSS JOIN LATERAL (SELECT spot_symbol_quote(s.symbol) AS quote) q
    CROSS JOIN (SELECT array_agg(coin) AS coins FROM stablecoins) st
  ), cand AS (
    SELECT ps.coin, c.ts, c.close FROM price_candles c JOIN price_symbols ps ON ps.symbol = c.symbol
    WHERE c.granularity = '1h'
  ), l AS (
    -- The next row's fill leg, for a base leg (see above); no ORDER BY, so no sort.
    SELECT l.*, lead(l.amount) OVER () AS next_amount, lead(l.source_id) OVER () AS next_id,
           lead(l.leg) OVER () AS next_leg, lead(l.account_uid) OVER () AS next_uid,
           lead(l.source) OVER () AS next_source
    FROM ledger l
    WHERE l.ts >= p_from AND l.ts < p_to
  ), r AS (
    SELECT l.account_uid, l.wallet, l.coin, l.ts, l.amount, l.kind, l.source, l.source_id, l.leg,
           l.order_id, l.symbol, l.counterparty,
           -- |the fill's quote amount|, for a fill's two legs (rules fiat_quote, stablecoin_quote)
           CASE WHEN f.quote IS NULL THEN NULL
                WHEN l.leg = 'quote' THEN abs(l.amount)
                WHEN l.leg <> 'base' THEN NULL
                WHEN l.next_leg = 'quote' AND l.next_source = 'spot_fills' AND l.next_id = l.source_id AND l.next_uid = l.account_uid THEN abs(l.next_amount)
                ELSE abs((SELECT sf.amount FROM spot_fills sf WHERE sf.account_uid = l.account_uid AND sf.trade_id = l.source_id))
           END AS fill_amount,
           f.quote, coalesce(f.q_stable, false) AS q_stable,
           coalesce(l.coin = ANY ((SELECT array_agg(coin) FROM stablecoins)::text[]), false) AS c_stable,
           x.nw, x.ccy,
           CASE WHEN upper(p_fiat) = 'USD' THEN 1 ELSE d.per_usd END AS fpu, greatest(d.rate_day, d.usd_rate_day) AS rate_day,
           d.per_eur AS fiat_per_eur, cx.per_eur AS ccy_per_eur, cx.rate_day AS ccy_rate_day,
           cb.close, cb.ts AS candle_ts,
           l.leg LIKE 'fee:%' AS is_fee,
           -- which part of a fill the row is: a leg, a fee in the quote or the base coin; NULL for
           -- a fee in a third coin (BGB), which the fill's prices do not value
           CASE WHEN f.quote IS NULL THEN NULL WHEN l.leg NOT LIKE 'fee:%' THEN 'leg'
                WHEN l.coin = f.quote THEN 'quote_fee' WHEN l.coin = f.base THEN 'base_fee' END AS fill_part
    FROM l
    LEFT JOIN syms f ON l.source = 'spot_fills' AND f.symbol = l.symbol
    -- Rare lookups run only for the rows that need them (subplans), not as joins over every row:
    -- an imported transaction's Net Worth; the FX rate of a currency that is fiat.
    CROSS JOIN LATERAL (SELECT
      CASE WHEN l.source = 'imported_transactions' AND l.leg IN ('sent', 'received') THEN
        (SELECT i.net_worth_amount FROM imported_transactions i WHERE i.source_id = l.source_id) END AS nw,
      CASE WHEN l.source = 'imported_transactions' AND l.leg IN ('sent', 'received') THEN
             coalesce((SELECT i.net_worth_currency FROM imported_transactions i WHERE i.source_id = l.source_id AND i.net_worth_amount IS NOT NULL), l.coin)
           WHEN l.source = 'spot_fills' THEN f.quote ELSE l.coin END AS ccy,
      (l.ts AT TIME ZONE 'UTC')::date AS day
    ) x
    LEFT JOIN fx_rates_daily d ON d.currency = upper(p_fiat) AND d.day = x.day
    -- fx_rates_daily holds only currencies of fx_rates and EUR, so no test of the currency first
    LEFT JOIN fx_rates_daily cx ON cx.currency = x.ccy AND cx.day = x.day
    -- the candle of a stablecoin quote for a fill's legs and own-coin fees, else of the row's coin
    LEFT JOIN cand cb ON cb.coin = CASE WHEN f.q_stable AND (l.leg NOT LIKE 'fee:%' OR l.coin IN (f.quote, f.base)) THEN f.quote ELSE l.coin END
         AND cb.ts = date_bin('1 hour', l.ts, '2000-01-01Z')
  ), k AS (
    -- The rule: only tests of plain columns, so repeating it below is cheap.
    SELECT r.*, h.has_ccy, h.fpc, h.has_usd, h.ccy_day,
      CASE
        WHEN h.has_ccy AND r.nw IS NOT NULL THEN 1                                  -- imported
        WHEN h.has_ccy AND r.source <> 'spot_fills' THEN 2                          -- fiat
        WHEN h.has_ccy AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 3 END  -- fill_price / fiat_quote
        WHEN NOT h.has_usd THEN 8                                                   -- unpriced: no rate from USD
        WHEN r.q_stable AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 4 END  -- fill_price / stablecoin_quote
        WHEN r.c_stable THEN 6                                                      -- stablecoin
        WHEN r.close IS NOT NULL THEN 7                                             -- candle
        ELSE 8
      END AS rule,
      -- the fill's price, only for a fee paid in the base coin (rule fill_price)
      CASE WHEN r.fill_part = 'base_fee' THEN
        (SELECT sf.price_avg FROM spot_fills sf WHERE sf.account_uid = r.account_uid AND sf.trade_id = r.source_id) END AS price_avg
    FROM r
    CROSS JOIN LATERAL (SELECT
      (r.ccy = upper(p_fiat) OR (r.fiat_per_eur IS NOT NULL AND r.ccy_per_eur IS NOT NULL)) AS has_ccy,
      (upper(p_fiat) = 'USD' OR r.fpu IS NOT NULL) AS has_usd,
      -- fiat per unit of the row's own currency (an imported Net Worth's, a fill's quote, the coin)
      CASE WHEN r.ccy = upper(p_fiat) THEN 1 ELSE r.fiat_per_eur / r.ccy_per_eur END AS fpc,
      CASE WHEN r.ccy = upper(p_fiat) THEN NULL ELSE least(r.rate_day, r.ccy_rate_day) END AS ccy_day
    ) h
    OFFSET 0 -- computes the columns above once per row; without it each use below repeats them
  )
  SELECT k.account_uid, k.wallet, k.coin, k.ts, k.amount, k.kind, k.source, k.source_id, k.leg,
         k.order_id, k.symbol, k.counterparty, upper(p_fiat),
         CASE k.rule
           WHEN 1 THEN CASE WHEN k.amount <> 0 THEN k.nw * k.fpc / abs(k.amount) END
           WHEN 2 THEN k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.fpc WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.fpc / abs(k.amount) END
           WHEN 4 THEN CASE WHEN k.is_fee THEN coalesce(k.close, 1) * k.fpu WHEN k.amount <> 0 THEN abs(k.fill_amount) * coalesce(k.close, 1) * k.fpu / abs(k.amount) END
           WHEN 5 THEN k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE coalesce(k.close, 1) * k.fpu END
           WHEN 6 THEN coalesce(k.close, 1) * k.fpu
           WHEN 7 THEN k.close * k.fpu
         END,
         CASE k.rule
           WHEN 1 THEN sign(k.amount) * k.nw * k.fpc
           WHEN 2 THEN k.amount * k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.fpc
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * coalesce(k.close, 1) * k.fpu
           WHEN 5 THEN k.amount * k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE coalesce(k.close, 1) * k.fpu END
           WHEN 6 THEN k.amount * coalesce(k.close, 1) * k.fpu
           WHEN 7 THEN k.amount * k.close * k.fpu
         END,
         (ARRAY['imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced'])[k.rule],
         CASE WHEN k.rule IN (6, 7) OR (k.rule IN (4, 5) AND NOT k.has_ccy) THEN k.candle_ts END,
         CASE WHEN k.rule IN (4, 6) OR (k.rule = 5 AND NOT k.has_ccy) THEN CASE WHEN k.close IS NULL THEN 'par' ELSE 'market' END END,
         CASE WHEN k.rule IN (1, 2, 3) OR (k.rule = 5 AND k.has_ccy) THEN k.ccy_day
              WHEN k.rule <> 8 AND upper(p_fiat) <> 'USD' THEN k.rate_day END
  FROM k
$$;


COMMENT ON FUNCTION ledger_valued_lead(text, timestamptz, timestamptz) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used. Rules: docs/valuation.md.';

-- ledger_valued_fxjoin(fiat): TRIED AND DROPPED (within noise, see BENCHMARKS.md). Same values as
-- migration 0027. migration 0027 looked up the FX rate of a row's own currency through a lateral subquery that
-- first tested the currency against the array of every currency in fx_rates, on each of the
-- ledger's rows; a plain join on (currency, day) finds the same row (or none) without that test.
-- Measured in BENCHMARKS.md (valuation section) with what else was tried and dropped: a lead()
-- over the ledger instead of the join back to spot_fills (slower: the window copies every row,
-- and its cost estimate switches on JIT optimisation, seconds per call), and a SET clause for
-- work_mem/jit (stops PostgreSQL inlining the function, whose result is then buffered: slower).

CREATE OR REPLACE FUNCTION ledger_valued_fxjoin(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity')
RETURNS TABLE (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text,
  source_id text, leg text, order_id text, symbol text, counterparty text,
  fiat text, unit_price numeric, value numeric, price_source text, price_time timestamptz,
  stablecoin_basis text, fx_day date
)
LANGUAGE sql STABLE AS $$
  WITH fills AS (
    -- A fill's quote coin, amount and price, joined on the fills (not the ledger's 1M rows).
    SELECT f.account_uid, f.trade_id, f.amount, f.price_avg, p.base, p.quote, p.q_stable
    FROM spot_fills f
    JOIN (SELECT s.symbol, q.quote, coalesce(q.quote = ANY (st.coins), false) AS q_stable,
                 left(split_part(s.symbol, '_', 1), length(split_part(s.symbol, '_', 1)) - length(q.quote)) AS base
          FROM (SELECT DISTINCT spot_fills.symbol FROM spot_fills) s
          CROSS JOIN LATERAL (SELECT spot_symbol_quote(s.symbol) AS quote) q
          CROSS JOIN (SELECT array_agg(coin) AS coins FROM stablecoins) st) p ON p.symbol = f.symbol
  ), cand AS (
    SELECT ps.coin, c.ts, c.close FROM price_candles c JOIN price_symbols ps ON ps.symbol = c.symbol
    WHERE c.granularity = '1h'
  ), r AS (
    SELECT l.account_uid, l.wallet, l.coin, l.ts, l.amount, l.kind, l.source, l.source_id, l.leg,
           l.order_id, l.symbol, l.counterparty,
           f.amount AS fill_amount, f.price_avg, f.quote, coalesce(f.q_stable, false) AS q_stable,
           coalesce(l.coin = ANY ((SELECT array_agg(coin) FROM stablecoins)::text[]), false) AS c_stable,
           x.nw, x.ccy,
           CASE WHEN upper(p_fiat) = 'USD' THEN 1 ELSE d.per_usd END AS fpu, greatest(d.rate_day, d.usd_rate_day) AS rate_day,
           d.per_eur AS fiat_per_eur, cx.per_eur AS ccy_per_eur, cx.rate_day AS ccy_rate_day,
           cb.close, cb.ts AS candle_ts,
           l.leg LIKE 'fee:%' AS is_fee,
           -- which part of a fill the row is: a leg, a fee in the quote or the base coin; NULL for
           -- a fee in a third coin (BGB), which the fill's prices do not value
           CASE WHEN l.source <> 'spot_fills' OR f.quote IS NULL THEN NULL WHEN l.leg NOT LIKE 'fee:%' THEN 'leg'
                WHEN l.coin = f.quote THEN 'quote_fee' WHEN l.coin = f.base THEN 'base_fee' END AS fill_part
    FROM ledger l
    LEFT JOIN fills f ON l.source = 'spot_fills' AND f.account_uid = l.account_uid AND f.trade_id = l.source_id
    -- Rare lookups run only for the rows that need them (subplans), not as joins over every row:
    -- an imported transaction's Net Worth; the FX rate of a currency that is fiat.
    CROSS JOIN LATERAL (SELECT
      CASE WHEN l.source = 'imported_transactions' AND l.leg IN ('sent', 'received') THEN
        (SELECT i.net_worth_amount FROM imported_transactions i WHERE i.source_id = l.source_id) END AS nw,
      CASE WHEN l.source = 'imported_transactions' AND l.leg IN ('sent', 'received') THEN
             coalesce((SELECT i.net_worth_currency FROM imported_transactions i WHERE i.source_id = l.source_id AND i.net_worth_amount IS NOT NULL), l.coin)
           WHEN l.source = 'spot_fills' THEN f.quote ELSE l.coin END AS ccy,
      (l.ts AT TIME ZONE 'UTC')::date AS day
    ) x
    LEFT JOIN fx_rates_daily d ON d.currency = upper(p_fiat) AND d.day = x.day
    -- fx_rates_daily holds only currencies of fx_rates and EUR (import fx builds it), so the test
    -- that ccy is one of them, which migration 0027 ran on every row, cannot change which row is found
    LEFT JOIN fx_rates_daily cx ON cx.currency = x.ccy AND cx.day = x.day
    -- the candle of a stablecoin quote for a fill's legs and own-coin fees, else of the row's coin
    LEFT JOIN cand cb ON cb.coin = CASE WHEN f.q_stable AND (l.leg NOT LIKE 'fee:%' OR l.coin IN (f.quote, f.base)) THEN f.quote ELSE l.coin END
         AND cb.ts = date_bin('1 hour', l.ts, '2000-01-01Z')
    WHERE l.ts >= p_from AND l.ts < p_to
  ), k AS (
    -- The rule: only tests of plain columns, so repeating it below is cheap.
    SELECT r.*, h.has_ccy, h.fpc, h.has_usd, h.ccy_day,
      CASE
        WHEN h.has_ccy AND r.nw IS NOT NULL THEN 1                                  -- imported
        WHEN h.has_ccy AND r.source <> 'spot_fills' THEN 2                          -- fiat
        WHEN h.has_ccy AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 3 END  -- fill_price / fiat_quote
        WHEN NOT h.has_usd THEN 8                                                   -- unpriced: no rate from USD
        WHEN r.q_stable AND r.fill_part IS NOT NULL THEN CASE r.fill_part WHEN 'base_fee' THEN 5 ELSE 4 END  -- fill_price / stablecoin_quote
        WHEN r.c_stable THEN 6                                                      -- stablecoin
        WHEN r.close IS NOT NULL THEN 7                                             -- candle
        ELSE 8
      END AS rule
    FROM r
    CROSS JOIN LATERAL (SELECT
      (r.ccy = upper(p_fiat) OR (r.fiat_per_eur IS NOT NULL AND r.ccy_per_eur IS NOT NULL)) AS has_ccy,
      (upper(p_fiat) = 'USD' OR r.fpu IS NOT NULL) AS has_usd,
      -- fiat per unit of the row's own currency (an imported Net Worth's, a fill's quote, the coin)
      CASE WHEN r.ccy = upper(p_fiat) THEN 1 ELSE r.fiat_per_eur / r.ccy_per_eur END AS fpc,
      CASE WHEN r.ccy = upper(p_fiat) THEN NULL ELSE least(r.rate_day, r.ccy_rate_day) END AS ccy_day
    ) h
    OFFSET 0 -- computes the columns above once per row; without it each use below repeats them
  )
  SELECT k.account_uid, k.wallet, k.coin, k.ts, k.amount, k.kind, k.source, k.source_id, k.leg,
         k.order_id, k.symbol, k.counterparty, upper(p_fiat),
         CASE k.rule
           WHEN 1 THEN CASE WHEN k.amount <> 0 THEN k.nw * k.fpc / abs(k.amount) END
           WHEN 2 THEN k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.fpc WHEN k.amount <> 0 THEN abs(k.fill_amount) * k.fpc / abs(k.amount) END
           WHEN 4 THEN CASE WHEN k.is_fee THEN coalesce(k.close, 1) * k.fpu WHEN k.amount <> 0 THEN abs(k.fill_amount) * coalesce(k.close, 1) * k.fpu / abs(k.amount) END
           WHEN 5 THEN k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE coalesce(k.close, 1) * k.fpu END
           WHEN 6 THEN coalesce(k.close, 1) * k.fpu
           WHEN 7 THEN k.close * k.fpu
         END,
         CASE k.rule
           WHEN 1 THEN sign(k.amount) * k.nw * k.fpc
           WHEN 2 THEN k.amount * k.fpc
           WHEN 3 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * k.fpc
           WHEN 4 THEN CASE WHEN k.is_fee THEN k.amount ELSE sign(k.amount) * abs(k.fill_amount) END * coalesce(k.close, 1) * k.fpu
           WHEN 5 THEN k.amount * k.price_avg * CASE WHEN k.has_ccy THEN k.fpc ELSE coalesce(k.close, 1) * k.fpu END
           WHEN 6 THEN k.amount * coalesce(k.close, 1) * k.fpu
           WHEN 7 THEN k.amount * k.close * k.fpu
         END,
         (ARRAY['imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced'])[k.rule],
         CASE WHEN k.rule IN (6, 7) OR (k.rule IN (4, 5) AND NOT k.has_ccy) THEN k.candle_ts END,
         CASE WHEN k.rule IN (4, 6) OR (k.rule = 5 AND NOT k.has_ccy) THEN CASE WHEN k.close IS NULL THEN 'par' ELSE 'market' END END,
         CASE WHEN k.rule IN (1, 2, 3) OR (k.rule = 5 AND k.has_ccy) THEN k.ccy_day
              WHEN k.rule <> 8 AND upper(p_fiat) <> 'USD' THEN k.rate_day END
  FROM k
$$;


COMMENT ON FUNCTION ledger_valued_fxjoin(text, timestamptz, timestamptz) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used. Rules: docs/valuation.md.';
