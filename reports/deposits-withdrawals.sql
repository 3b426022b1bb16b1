-- deposits-withdrawals.csv: every deposit and withdrawal of the period, whatever its status;
-- in_ledger says whether it counts (only status success does, and not a record flagged with an
-- amount of a sign the API never uses: sql/schema/views/ledger.sql, data-quality.csv).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, account_uid, direction (deposit|withdrawal), order_id,
--   tx_id (chain hash on chain, order id when internal), coin, chain, dest (on_chain|internal),
--   status (normalized), raw_status, size, fee, from_address, to_address, in_ledger
SELECT to_char(c_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(c_time AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid, direction, order_id, trade_id AS tx_id, coin, chain, norm_dest(dest) AS dest,
       norm_status(status) AS status, status AS raw_status, money_text(size) AS size, money_text(fee) AS fee,
       from_address, to_address, (norm_status(status) = 'success' AND NOT has_unused_sign(problems))::text AS in_ledger
FROM (
  SELECT 'deposit' AS direction, account_uid, order_id, trade_id, coin, chain, dest, status, size,
         NULL::numeric AS fee, from_address, to_address, c_time, problems FROM deposits
  UNION ALL
  SELECT 'withdrawal', account_uid, order_id, trade_id, coin, chain, dest, status, size,
         fee, from_address, to_address, c_time, problems FROM withdrawals
) x
WHERE c_time >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND c_time < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR account_uid = :'account')
ORDER BY c_time, account_uid, direction, order_id;
