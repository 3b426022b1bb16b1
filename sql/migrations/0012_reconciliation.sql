-- Reconciliation: for each account, wallet and coin, the ledger's sum against the latest balance
-- the exchange reported. Every pair appears, whatever its status; nothing is hidden.
--
-- Snapshots:
--   spot      the running `balance` of the newest spot bill of that coin (time, then bill id)
--   futures   the newest futures_account_snapshots row: account_equity - unrealized_pl, i.e. the
--             wallet balance without the open positions' unrealized PnL
--   margin    none exists (status no_snapshot)
-- The ledger is summed up to and including the snapshot's time, so later activity does not
-- count as a difference.
--
-- status: match (difference = 0), difference, no_snapshot, no_ledger_rows.

CREATE VIEW balance_snapshots AS
SELECT DISTINCT ON (account_uid, coin)
       account_uid, 'spot'::text AS wallet, coin, c_time AS snapshot_at, balance, 'spot_bills'::text AS source
FROM spot_bills
WHERE balance IS NOT NULL AND coin IS NOT NULL AND c_time IS NOT NULL
ORDER BY account_uid, coin, c_time DESC, length(bill_id) DESC, bill_id DESC;

CREATE VIEW futures_balance_snapshots AS
SELECT DISTINCT ON (account_uid, product_type, margin_coin)
       account_uid, futures_wallet(product_type) AS wallet, margin_coin AS coin, snapshot_at,
       account_equity - coalesce(unrealized_pl, 0) AS balance, 'futures_account_snapshots'::text AS source
FROM futures_account_snapshots
WHERE account_equity IS NOT NULL
ORDER BY account_uid, product_type, margin_coin, snapshot_at DESC;

CREATE VIEW reconciliation AS
WITH snaps AS (
  SELECT * FROM balance_snapshots
  UNION ALL
  SELECT * FROM futures_balance_snapshots
), sums AS (
  SELECT l.account_uid, l.wallet, l.coin,
         sum(l.amount) FILTER (WHERE s.snapshot_at IS NULL OR l.ts <= s.snapshot_at) AS ledger_sum,
         count(*) FILTER (WHERE s.snapshot_at IS NULL OR l.ts <= s.snapshot_at) AS ledger_rows
  FROM ledger l
  LEFT JOIN snaps s ON s.account_uid = l.account_uid AND s.wallet = l.wallet AND s.coin = l.coin
  GROUP BY l.account_uid, l.wallet, l.coin
)
SELECT coalesce(s.account_uid, m.account_uid) AS account_uid,
       coalesce(s.wallet, m.wallet) AS wallet,
       coalesce(s.coin, m.coin) AS coin,
       s.snapshot_at,
       s.source AS snapshot_source,
       s.balance AS snapshot_balance,
       coalesce(m.ledger_sum, 0) AS ledger_sum,
       coalesce(m.ledger_rows, 0) AS ledger_rows,
       CASE WHEN s.balance IS NULL THEN NULL ELSE s.balance - coalesce(m.ledger_sum, 0) END AS difference,
       CASE WHEN s.balance IS NULL THEN 'no_snapshot'
            WHEN m.account_uid IS NULL THEN 'no_ledger_rows'
            WHEN s.balance = coalesce(m.ledger_sum, 0) THEN 'match'
            ELSE 'difference' END AS status
FROM snaps s
FULL JOIN sums m ON m.account_uid = s.account_uid AND m.wallet = s.wallet AND m.coin = s.coin;

COMMENT ON VIEW reconciliation IS 'Ledger sum vs the latest exchange balance per account, wallet and coin; every difference is listed.';
