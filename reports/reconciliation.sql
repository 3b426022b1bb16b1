-- reconciliation.csv: the reconciliation view (sql/schema/views/reconciliation.sql): per account, wallet and coin the
-- exchange's figure, the ledger's, the difference and why. Not limited to the period: it checks
-- the whole copy. Every pair is listed, whatever its status.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   (from, to and tz are accepted and unused here)
-- Columns: account_uid, wallet, coin, snapshot_at (time of the exchange's figure),
--   snapshot_source (spot_bills | futures_bills | futures_account_snapshots), exchange_balance,
--   ledger_balance (ledger sum up to snapshot_at), ledger_rows, difference (exchange - ledger),
--   status (match | opening_balance | unexplained | no_snapshot), opening_balance (the holding
--   from before the first record read, for opening_balance), parted_at, parted_source,
--   parted_record_id, parted_kind, parted_change (for unexplained: the first exchange record from
--   which the running balances part), parted_exchange_balance, parted_ledger_balance (the two
--   running balances there), explanation (one sentence saying why)
SELECT account_uid, wallet, coin,
       to_char(snapshot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS snapshot_at,
       snapshot_source, money_text(exchange_balance) AS exchange_balance, money_text(ledger_balance) AS ledger_balance,
       ledger_rows, money_text(difference) AS difference, status, money_text(opening_balance) AS opening_balance,
       to_char(parted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS parted_at,
       parted_source, parted_record_id, parted_kind, money_text(parted_change) AS parted_change,
       money_text(parted_exchange_balance) AS parted_exchange_balance, money_text(parted_ledger_balance) AS parted_ledger_balance,
       explanation
FROM reconciliation
WHERE (:'account' = '' OR account_uid = :'account')
ORDER BY account_uid, wallet, coin;
