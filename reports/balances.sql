-- balances.csv: the balance of every account, wallet and coin at the end of the period ('to'),
-- from the ledger, beside the newest exchange balance reported before then (spot bills' running
-- balance; futures account equity minus unrealized PnL). difference = snapshot - ledger.
-- The ledger sum runs from the start of history, so a history gap shows up as a difference.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: as_of_utc, account_uid, wallet, coin, ledger_balance, snapshot_balance, snapshot_at,
--   snapshot_source, difference
WITH cut AS (SELECT (:'to')::timestamp AT TIME ZONE :'tz' AS t),
sums AS (
  SELECT account_uid, wallet, coin, sum(amount) AS balance FROM ledger, cut
  WHERE ts < cut.t AND (:'account' = '' OR account_uid = :'account')
  GROUP BY account_uid, wallet, coin
),
snaps AS (
  SELECT DISTINCT ON (account_uid, coin) account_uid, 'spot'::text AS wallet, coin, c_time AS snapshot_at,
         balance, 'spot_bills'::text AS source
  FROM spot_bills, cut
  WHERE c_time < cut.t AND balance IS NOT NULL AND coin IS NOT NULL AND (:'account' = '' OR account_uid = :'account')
  ORDER BY account_uid, coin, c_time DESC, length(bill_id) DESC, bill_id DESC
),
fsnaps AS (
  SELECT DISTINCT ON (account_uid, product_type, margin_coin) account_uid, futures_wallet(product_type) AS wallet,
         margin_coin AS coin, snapshot_at, account_equity - coalesce(unrealized_pl, 0) AS balance,
         'futures_account_snapshots'::text AS source
  FROM futures_account_snapshots, cut
  WHERE snapshot_at < cut.t AND account_equity IS NOT NULL AND (:'account' = '' OR account_uid = :'account')
  ORDER BY account_uid, product_type, margin_coin, snapshot_at DESC
),
all_snaps AS (SELECT * FROM snaps UNION ALL SELECT * FROM fsnaps)
SELECT to_char((SELECT t FROM cut) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS as_of_utc,
       coalesce(s.account_uid, n.account_uid) AS account_uid, coalesce(s.wallet, n.wallet) AS wallet,
       coalesce(s.coin, n.coin) AS coin, money_text(coalesce(s.balance, 0)) AS ledger_balance,
       money_text(n.balance) AS snapshot_balance,
       to_char(n.snapshot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS snapshot_at,
       n.source AS snapshot_source, money_text(n.balance - coalesce(s.balance, 0)) AS difference
FROM sums s
FULL JOIN all_snaps n ON n.account_uid = s.account_uid AND n.wallet = s.wallet AND n.coin = s.coin
ORDER BY 2, 3, 4;
