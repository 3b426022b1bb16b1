-- ledger.csv: every settled balance change in the period (the ledger view, rules in docs/ledger.md).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local (in tz), account_uid, wallet, coin, amount (signed, > 0 in),
--   kind, source, source_id, leg, order_id, symbol, counterparty, demo (true: a demo-trading
--   row, ledger.demo, sql/schema/views/ledger.sql; kept here, left out of the tax-tool files and gains by default)
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(ts AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid, wallet, coin, money_text(amount) AS amount, kind, source, source_id, leg,
       order_id, symbol, counterparty, demo::text AS demo
FROM ledger
WHERE ts >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND ts < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR account_uid = :'account')
ORDER BY ts, account_uid, source, source_id, leg;
