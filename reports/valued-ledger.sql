-- valued-ledger.csv: every ledger row of the period with its value in one fiat currency and the
-- rule that gave it (ledger_valued, sql/schema/functions/ledger_valued.sql; rules in docs/valuation.md).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v fiat=USD):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid or an imported wallet name, or '' for every account
--   fiat       ISO 4217 code of the currency to value in (USD, EUR, GBP, ...)
-- Columns: time_utc, time_local (in tz), account_uid, wallet, coin, amount (signed, > 0 in), kind,
--   source, source_id, leg, order_id, symbol, fiat, unit_price (fiat per coin), value (fiat, same
--   sign as amount; empty when unpriced), price_source (demo | imported | fiat | fiat_quote |
--   stablecoin_quote | fill_price | stablecoin | candle | unpriced), price_time_utc (open time of
--   the candle used), stablecoin_basis (market | par: a stablecoin valued by its own candle or at
--   1 USD), fx_day (the ECB rate day used), demo, correction_id and classification (the correction
--   in force on the row, sql/migrations/0067_ledger_corrections.sql: a corrected price shows price_source corrected; corrections.csv
--   says who set it and why). unit_price and value are rounded to 10 decimals.
-- Demo-trading rows (demo = true, sql/schema/views/ledger.sql) are kept, as in every native CSV, and valued 0 with
--   price_source demo: their coins are virtual (docs/valuation.md).
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(ts AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid, wallet, coin, money_text(amount) AS amount, kind, source, source_id, leg,
       order_id, symbol, fiat, money_text(round(unit_price, 10)) AS unit_price,
       money_text(round(value, 10)) AS value, price_source,
       to_char(price_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS price_time_utc,
       stablecoin_basis, to_char(fx_day, 'YYYY-MM-DD') AS fx_day, demo::text AS demo,
       correction_id, classification
FROM ledger_valued(:'fiat', (:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', true)
WHERE true
  AND (:'account' = '' OR account_uid = :'account')
ORDER BY ts, account_uid, source, source_id, leg;
