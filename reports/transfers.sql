-- transfers.csv: E19 main/sub transfers of the period, whatever their status (only Successful
-- ones are in the ledger, and not one flagged with an amount of a sign the API never uses: sql/schema/views/ledger.sql).
-- account selects transfers the account initiated, sent or received.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, initiator_uid, transfer_id, client_oid, coin, status (normalized),
--   raw_status, from_user_id, from_wallet, to_user_id, to_wallet, size, in_ledger
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(ts AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid AS initiator_uid, transfer_id, client_oid, coin, norm_status(status) AS status,
       status AS raw_status, from_user_id, lower(from_type) AS from_wallet, to_user_id,
       lower(to_type) AS to_wallet, money_text(size) AS size, (norm_status(status) = 'success' AND NOT has_unused_sign(problems))::text AS in_ledger
FROM (SELECT DISTINCT ON (transfer_id) * FROM transfers ORDER BY transfer_id, account_uid) t
WHERE ts >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND ts < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR :'account' IN (account_uid, from_user_id, to_user_id))
ORDER BY ts, transfer_id;
