-- trades.csv: spot fills with their normalized fees (one row per fill); a fill flagged with an
-- amount of a sign the API never uses is left out, as in the ledger (sql/schema/views/ledger.sql; see data-quality.csv).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, account_uid, trade_id, order_id, symbol, base, quote, side,
--   order_type, trade_scope, price, size (base), quote_amount, fees (every coin paid, "0.5 BGB; ..."),
--   fee_payable_in_received_coin, fee_platform_deducted, fee_coupon_covered, fee_format,
--   demo (true: a demo-trading row, sql/schema/views/ledger.sql; kept in every native CSV, left out of tax files)
SELECT to_char(f.c_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(f.c_time AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       f.account_uid, f.trade_id, f.order_id, f.symbol,
       left(split_part(f.symbol, '_', 1), length(split_part(f.symbol, '_', 1)) - length(spot_symbol_quote(f.symbol))) AS base,
       spot_symbol_quote(f.symbol) AS quote,
       norm_side(f.side) AS side, f.order_type, f.trade_scope,
       money_text(f.price_avg) AS price, money_text(f.size) AS size, money_text(f.amount) AS quote_amount,
       fe.fees, money_text(fe.payable) AS fee_payable_in_received_coin,
       money_text(fe.platform) AS fee_platform_deducted, money_text(fe.coupon) AS fee_coupon_covered,
       fe.format AS fee_format,
       (f.account_uid IN (SELECT uid FROM accounts WHERE kind = 'demo'))::text AS demo
FROM spot_fills f
LEFT JOIN LATERAL (
  SELECT string_agg(money_text(x.paid) || ' ' || x.coin, '; ' ORDER BY x.seq) AS fees,
         sum(x.payable_in_received_coin) AS payable, sum(x.platform_deducted) AS platform,
         sum(x.coupon_covered) AS coupon, min(x.format) AS format
  FROM fees x
  WHERE x.account_uid = f.account_uid AND x.source = 'spot_fills' AND x.source_id = f.trade_id
) fe ON true
WHERE f.c_time >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND f.c_time < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR f.account_uid = :'account')
  AND NOT has_unused_sign(f.problems)
ORDER BY f.c_time, f.account_uid, f.trade_id;
