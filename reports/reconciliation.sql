-- reconciliation.csv: the reconciliation view (sql/0012): the ledger's sum against the newest
-- exchange balance per account, wallet and coin, as of that balance's time. Not limited to the
-- period: it checks the whole copy. Every difference is listed.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   (from, to and tz are accepted and unused here)
-- Columns: account_uid, wallet, coin, snapshot_at, snapshot_source, snapshot_balance, ledger_sum,
--   ledger_rows, difference, status (match|difference|no_snapshot|no_ledger_rows)
SELECT account_uid, wallet, coin,
       to_char(snapshot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS snapshot_at,
       snapshot_source, money_text(snapshot_balance) AS snapshot_balance, money_text(ledger_sum) AS ledger_sum,
       ledger_rows, money_text(difference) AS difference, status
FROM reconciliation
WHERE (:'account' = '' OR account_uid = :'account')
ORDER BY account_uid, wallet, coin;
