-- margin-records.csv: the E5 margin transaction records as the tax endpoint gives them, with the
-- ledger kind each becomes.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, account_uid, margin_type, id, coin, symbol, margin_tax_type,
--   amount, fee, total
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(ts AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid, margin_type, id, coin, symbol, margin_tax_type,
       money_text(amount) AS amount, money_text(fee) AS fee, money_text(total) AS total
FROM margin_records
WHERE ts >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND ts < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR account_uid = :'account')
ORDER BY ts, account_uid, margin_type, id;
