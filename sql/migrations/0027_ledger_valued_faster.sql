-- ledger_valued(fiat), same columns and rules as sql/0026, computed faster. In sql/0026 each
-- derived quantity (the rule, fiat per USD, ...) was a column of a subquery; the planner folds
-- such subqueries into the outer query and repeats the expression wherever it is used, so the rule
-- and its divisions ran several times per row. Here the rule is a CASE over plain columns, the
-- arithmetic of a rule runs only in the branch that applies, and fiat per USD is stored per day
-- (fx_rates_daily.per_usd, filled by import fx) instead of divided per row. Rules and columns:
-- sql/0026 and docs/valuation.md.

ALTER TABLE fx_rates_daily ADD COLUMN per_usd numeric, ADD COLUMN usd_rate_day date;
COMMENT ON COLUMN fx_rates_daily.per_usd IS 'units of the currency per 1 USD that day (per_eur / USD per_eur)';
UPDATE fx_rates_daily f SET per_usd = f.per_eur / u.per_eur, usd_rate_day = u.rate_day
FROM fx_rates_daily u WHERE u.currency = 'USD' AND u.day = f.day;

DROP FUNCTION ledger_valued(text);
CREATE FUNCTION ledger_valued(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity')
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
    LEFT JOIN LATERAL (SELECT c.per_eur, c.rate_day FROM fx_rates_daily c
                       WHERE x.ccy = ANY ((SELECT array_agg(DISTINCT currency) || 'EUR'::text FROM fx_rates)::text[])
                         AND c.currency = x.ccy AND c.day = x.day) cx ON true
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

COMMENT ON FUNCTION ledger_valued(text, timestamptz, timestamptz) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used. Rules: docs/valuation.md.';
