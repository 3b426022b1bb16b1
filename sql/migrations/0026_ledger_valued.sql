-- ledger_valued(fiat): every ledger row with its value in one fiat currency and the rule that gave
-- it. A function over the live tables (not a table a run fills), so it is never stale and costs no
-- storage; it is one SQL statement the planner inlines, so a full read is a handful of hash joins
-- (see docs/valuation.md and BENCHMARKS.md).
--
-- Rules, first that applies wins (price_source):
--   imported          an imported transaction's sent/received leg with a Net Worth: that value,
--                     converted from its Net Worth Currency by the ECB rate of the day
--   fiat              the row's coin is a fiat currency (EUR, USD, ...): the ECB rate of the day
--   fiat_quote        a spot fill whose quote coin is a fiat currency: the quote amount
--   stablecoin_quote  a spot fill quoted in a stablecoin: the quote amount times the stablecoin's
--                     value (its own candle where there is one, else 1 USD; stablecoin_basis says)
--   fill_price        a fee of a spot fill paid in the base coin: fee x the fill's price x the
--                     quote's fiat value (only when the quote is fiat or a stablecoin)
--   stablecoin        the row's coin is a stablecoin: its own candle close, else 1 USD
--   candle            the close of the coin's 1h candle that holds the row's time (price_symbols)
--   unpriced          none of the above: value NULL; listed in data-quality.csv
-- USD is reached from the fiat by ECB rates (fiat per EUR / USD per EUR); a stablecoin candle's
-- quote (USDT) counts as 1 USD. A day without an ECB rate uses the last earlier one (fx_rates_daily).
--
-- Columns: the ledger's (account_uid .. counterparty), then fiat, unit_price (fiat per coin),
-- value (fiat, same sign as amount), price_source, price_time (candle open time used, if any),
-- stablecoin_basis ('market' | 'par' | NULL), fx_day (the ECB rate day used, if any).
--
-- Example: SELECT * FROM ledger_valued('EUR') WHERE price_source = 'unpriced';

CREATE FUNCTION ledger_valued(p_fiat text)
RETURNS TABLE (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text,
  source_id text, leg text, order_id text, symbol text, counterparty text,
  fiat text, unit_price numeric, value numeric, price_source text, price_time timestamptz,
  stablecoin_basis text, fx_day date
)
LANGUAGE sql STABLE AS $$
  WITH fiat_day AS (
    -- Per day: units of the fiat and of USD per EUR.
    SELECT f.day, f.per_eur AS fiat_per_eur, u.per_eur AS usd_per_eur, greatest(f.rate_day, u.rate_day) AS rate_day
    FROM fx_rates_daily f JOIN fx_rates_daily u ON u.day = f.day AND u.currency = 'USD'
    WHERE f.currency = upper(p_fiat)
  ), pairs AS (
    SELECT s.symbol, spot_symbol_quote(s.symbol) AS quote
    FROM (SELECT DISTINCT spot_fills.symbol FROM spot_fills) s
  ), cand AS (
    SELECT ps.coin, c.ts, c.close FROM price_candles c JOIN price_symbols ps ON ps.symbol = c.symbol
    WHERE c.granularity = '1h'
  ), r AS (
    SELECT l.*, f.amount AS fill_quote_amount, f.price_avg AS fill_price, p.quote,
           i.net_worth_amount AS nw_amount,
           (st.coin IS NOT NULL) AS quote_is_stable,
           (sc.coin IS NOT NULL) AS coin_is_stable,
           d.fiat_per_eur, d.usd_per_eur, d.rate_day, cx.per_eur AS ccy_per_eur, cx.rate_day AS ccy_rate_day,
           x.ccy, cb.close AS candle_close, cb.ts AS candle_ts
    FROM ledger l
    LEFT JOIN spot_fills f ON l.source = 'spot_fills' AND f.account_uid = l.account_uid AND f.trade_id = l.source_id
    LEFT JOIN pairs p ON l.source = 'spot_fills' AND p.symbol = f.symbol
    LEFT JOIN imported_transactions i ON l.source = 'imported_transactions' AND i.source_id = l.source_id
         AND l.leg IN ('sent', 'received')
    LEFT JOIN stablecoins st ON st.coin = p.quote
    LEFT JOIN stablecoins sc ON sc.coin = l.coin
    CROSS JOIN LATERAL (SELECT
      -- the currency an FX rate is needed for: the Net Worth's, the fill's quote, or the row's coin
      CASE WHEN i.net_worth_amount IS NOT NULL THEN i.net_worth_currency
           WHEN l.source = 'spot_fills' THEN p.quote ELSE l.coin END AS ccy,
      -- the coin whose candle prices the row: a stablecoin quote's own, else the row's coin
      CASE WHEN st.coin IS NOT NULL THEN p.quote ELSE l.coin END AS candle_coin,
      (l.ts AT TIME ZONE 'UTC')::date AS day
    ) x
    LEFT JOIN fiat_day d ON d.day = x.day
    LEFT JOIN fx_rates_daily cx ON cx.currency = x.ccy AND cx.day = x.day
    LEFT JOIN cand cb ON cb.coin = x.candle_coin AND cb.ts = date_trunc('hour', l.ts)
  ), k AS (
    SELECT r.*,
      CASE WHEN upper(p_fiat) = 'USD' THEN 1 ELSE r.fiat_per_eur / r.usd_per_eur END AS fiat_per_usd,
      CASE WHEN r.ccy = upper(p_fiat) THEN 1 ELSE r.fiat_per_eur / r.ccy_per_eur END AS fiat_per_ccy,
      CASE WHEN r.quote_is_stable OR r.coin_is_stable THEN coalesce(r.candle_close, 1) END AS stable_usd
    FROM r
  ), v AS (
    SELECT k.*,
      CASE
        WHEN k.nw_amount IS NOT NULL AND k.fiat_per_ccy IS NOT NULL THEN 'imported'
        WHEN k.source <> 'spot_fills' AND k.fiat_per_ccy IS NOT NULL THEN 'fiat'
        WHEN k.source = 'spot_fills' AND k.fiat_per_ccy IS NOT NULL
             THEN CASE WHEN k.leg LIKE 'fee:%' AND k.coin IS DISTINCT FROM k.quote THEN 'fill_price' ELSE 'fiat_quote' END
        WHEN k.source = 'spot_fills' AND k.quote_is_stable AND k.fiat_per_usd IS NOT NULL
             THEN CASE WHEN k.leg LIKE 'fee:%' AND k.coin IS DISTINCT FROM k.quote THEN 'fill_price' ELSE 'stablecoin_quote' END
        WHEN k.coin_is_stable AND k.fiat_per_usd IS NOT NULL THEN 'stablecoin'
        WHEN k.candle_close IS NOT NULL AND k.fiat_per_usd IS NOT NULL AND NOT k.quote_is_stable THEN 'candle'
        ELSE 'unpriced'
      END AS rule,
      -- fiat value of one unit of the fill's quote coin
      CASE WHEN k.source = 'spot_fills' THEN coalesce(k.fiat_per_ccy, k.stable_usd * k.fiat_per_usd) END AS quote_fiat
    FROM k
  ), w AS (
    SELECT v.*,
      CASE v.rule
        WHEN 'imported' THEN sign(v.amount) * v.nw_amount * v.fiat_per_ccy
        WHEN 'fiat' THEN v.amount * v.fiat_per_ccy
        WHEN 'fill_price' THEN v.amount * v.fill_price * v.quote_fiat
        WHEN 'fiat_quote' THEN CASE WHEN v.leg LIKE 'fee:%' THEN v.amount ELSE sign(v.amount) * abs(v.fill_quote_amount) END * v.quote_fiat
        WHEN 'stablecoin_quote' THEN CASE WHEN v.leg LIKE 'fee:%' THEN v.amount ELSE sign(v.amount) * abs(v.fill_quote_amount) END * v.quote_fiat
        WHEN 'stablecoin' THEN v.amount * v.stable_usd * v.fiat_per_usd
        WHEN 'candle' THEN v.amount * v.candle_close * v.fiat_per_usd
      END AS val
    FROM v
  )
  SELECT w.account_uid, w.wallet, w.coin, w.ts, w.amount, w.kind, w.source, w.source_id, w.leg,
         w.order_id, w.symbol, w.counterparty,
         upper(p_fiat), CASE WHEN w.amount <> 0 THEN w.val / w.amount END, w.val, w.rule,
         CASE WHEN w.rule IN ('candle', 'stablecoin', 'stablecoin_quote', 'fill_price') AND w.candle_close IS NOT NULL
              AND (w.quote_is_stable OR w.coin_is_stable OR w.rule = 'candle') THEN w.candle_ts END,
         CASE WHEN w.rule IN ('stablecoin', 'stablecoin_quote') OR (w.rule = 'fill_price' AND w.quote_is_stable)
              THEN CASE WHEN w.candle_close IS NULL THEN 'par' ELSE 'market' END END,
         CASE WHEN w.rule IN ('imported', 'fiat') OR (w.rule IN ('fiat_quote', 'fill_price') AND NOT w.quote_is_stable)
              THEN CASE WHEN w.ccy = upper(p_fiat) THEN NULL ELSE least(w.rate_day, w.ccy_rate_day) END
              WHEN w.rule <> 'unpriced' AND upper(p_fiat) <> 'USD' THEN w.rate_day END
  FROM w
$$;

COMMENT ON FUNCTION ledger_valued(text) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used. Rules: docs/valuation.md.';
