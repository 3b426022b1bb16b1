-- Reconciliation: a wallet and coin of which no record was read at all (no bill, no ledger row),
-- while the exchange reports a balance for it, is an opening balance: all of it was held before
-- the history read (a sync --since later than its last movement; futures wallets whose bills all
-- lie before --since). 0062 called it unexplained ("no running balance"), though nothing is
-- missing from what was read. Same columns; only the class, its opening figure, date and
-- explanation change for those rows.
-- And a futures wallet is checked against its newest bill's running balance where bills were
-- read (E14's live figure only where none were): E14 counts the bills of the last minutes, inside
-- the sync's safety lag, so every futures wallet of a fresh demo was 'unexplained'.

CREATE OR REPLACE VIEW reconciliation AS
WITH walk AS (
  SELECT * FROM reconciliation_walk
), points AS (
  SELECT w.*, first_value(gap) OVER (PARTITION BY account_uid, wallet, coin ORDER BY ts) AS opening
  FROM walk w
  WHERE exchange_balance IS NOT NULL
), series AS (
  SELECT account_uid, wallet, coin, min(opening) AS opening, min(ts) AS first_bill_at, max(ts) AS last_bill_at,
         (array_agg(exchange_balance ORDER BY ts DESC))[1] AS last_balance,
         max(ts) FILTER (WHERE gap = opening) AS last_agree_at
  FROM points
  GROUP BY 1, 2, 3
), parting AS (
  SELECT DISTINCT ON (p.account_uid, p.wallet, p.coin) p.*
  FROM points p
  JOIN series s USING (account_uid, wallet, coin)
  WHERE p.ts > s.last_agree_at
  ORDER BY p.account_uid, p.wallet, p.coin, p.ts
), futures_snaps AS (
  SELECT DISTINCT ON (account_uid, product_type, margin_coin)
         account_uid, futures_wallet(product_type) AS wallet, margin_coin AS coin, snapshot_at,
         account_equity - coalesce(unrealized_pl, 0) AS balance
  FROM futures_account_snapshots
  WHERE account_equity IS NOT NULL
  ORDER BY account_uid, product_type, margin_coin, snapshot_at DESC
), snaps AS (
  -- The newest bill's running balance first (as of the last record read, so the ledger can
  -- match it exactly); E14's live figure only where no bill was read: it counts movements made
  -- within the sync's safety lag, which the next sync reads, and so differed after every sync.
  SELECT coalesce(s.account_uid, f.account_uid) AS account_uid, coalesce(s.wallet, f.wallet) AS wallet,
         coalesce(s.coin, f.coin) AS coin,
         coalesce(s.last_bill_at, f.snapshot_at) AS snapshot_at,
         CASE WHEN s.account_uid IS NULL THEN 'futures_account_snapshots' WHEN s.wallet = 'spot' THEN 'spot_bills' ELSE 'futures_bills' END AS source,
         coalesce(s.last_balance, f.balance) AS balance
  FROM series s
  FULL JOIN futures_snaps f ON f.account_uid = s.account_uid AND f.wallet = s.wallet AND f.coin = s.coin
), sums AS (
  SELECT w.account_uid, w.wallet, w.coin,
         sum(w.ledger_change) FILTER (WHERE s.snapshot_at IS NULL OR w.ts <= s.snapshot_at) AS ledger_sum,
         sum(w.ledger_rows) FILTER (WHERE s.snapshot_at IS NULL OR w.ts <= s.snapshot_at) AS ledger_rows,
         min(w.ts) FILTER (WHERE w.ledger_rows > 0) AS first_ledger_at
  FROM walk w
  LEFT JOIN snaps s ON s.account_uid = w.account_uid AND s.wallet = w.wallet AND s.coin = w.coin
  GROUP BY w.account_uid, w.wallet, w.coin
  HAVING sum(w.ledger_rows) > 0
), joined AS (
  SELECT coalesce(s.account_uid, m.account_uid) AS account_uid, coalesce(s.wallet, m.wallet) AS wallet,
         coalesce(s.coin, m.coin) AS coin, s.snapshot_at, s.source AS snapshot_source, s.balance AS exchange_balance,
         coalesce(m.ledger_sum, 0) AS ledger_balance, coalesce(m.ledger_rows, 0) AS ledger_rows, m.first_ledger_at
  FROM snaps s
  FULL JOIN sums m ON m.account_uid = s.account_uid AND m.wallet = s.wallet AND m.coin = s.coin
), classed AS (
  SELECT j.*, o.opening, se.first_bill_at, se.last_agree_at,
         j.exchange_balance - j.ledger_balance AS difference,
         CASE WHEN j.exchange_balance IS NULL THEN 'no_snapshot'
              WHEN j.exchange_balance = j.ledger_balance THEN 'match'
              WHEN o.opening > 0 AND j.exchange_balance - j.ledger_balance = o.opening THEN 'opening_balance'
              ELSE 'unexplained' END AS status
  FROM joined j
  LEFT JOIN series se ON se.account_uid = j.account_uid AND se.wallet = j.wallet AND se.coin = j.coin
  -- No record of this wallet and coin was read at all (no bill, no ledger row: a sync --since
  -- later than its last movement), yet the exchange reports a balance: all of it was held
  -- before what was read, an opening balance like any other.
  CROSS JOIN LATERAL (SELECT CASE WHEN se.account_uid IS NULL AND j.ledger_rows = 0 AND j.exchange_balance > 0
                                  THEN j.exchange_balance ELSE se.opening END AS opening) o
)
SELECT c.account_uid, c.wallet, c.coin, c.snapshot_at, c.snapshot_source,
       c.exchange_balance, c.ledger_balance, c.ledger_rows, c.difference, c.status,
       CASE WHEN c.status = 'opening_balance' THEN c.opening END AS opening_balance,
       CASE WHEN c.status = 'opening_balance' THEN date_trunc('minute', coalesce(least(c.first_bill_at, c.first_ledger_at), c.snapshot_at)) - interval '1 minute' END AS opening_at,
       CASE WHEN c.status = 'unexplained' THEN p.ts END AS parted_at,
       CASE WHEN c.status = 'unexplained' THEN p.record_source END AS parted_source,
       CASE WHEN c.status = 'unexplained' THEN p.record_id END AS parted_record_id,
       CASE WHEN c.status = 'unexplained' THEN p.record_kind END AS parted_kind,
       CASE WHEN c.status = 'unexplained' THEN p.record_change END AS parted_change,
       CASE WHEN c.status = 'unexplained' THEN p.exchange_balance END AS parted_exchange_balance,
       CASE WHEN c.status = 'unexplained' THEN p.ledger_balance END AS parted_ledger_balance,
       CASE WHEN c.status = 'unexplained' THEN c.last_agree_at END AS agreed_until,
       CASE c.status
         WHEN 'match' THEN 'the ledger equals the exchange''s balance'
         WHEN 'opening_balance' THEN CASE
           WHEN c.ledger_rows = 0 AND c.first_bill_at IS NULL THEN format('%s %s was held all through the history read (no record of this wallet and coin was read, and the exchange reports it at %s): history before what was read, a holding without a known cost; give its cost in opening-balances.csv and import it',
                                            money_text(c.opening), c.coin, to_char(c.snapshot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'))
           ELSE format('%s %s was held before the first record read (%s): history the exchange no longer serves, a holding without a known cost; give its cost in opening-balances.csv and import it',
                                            money_text(c.opening), c.coin, to_char(least(c.first_bill_at, c.first_ledger_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"')) END
         WHEN 'unexplained' THEN CASE
           WHEN p.ts IS NOT NULL THEN format('the running balances part at %s %s (%s, %s %s, %s): the exchange''s balance is %s there and the ledger''s %s, a gap of %s where it was %s until %s',
                                             p.record_source, p.record_id, coalesce(p.record_kind, '?'), money_text(p.record_change), c.coin,
                                             to_char(p.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS"Z"'),
                                             money_text(p.exchange_balance), money_text(p.ledger_balance), money_text(p.gap), money_text(c.opening),
                                             to_char(c.last_agree_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS"Z"'))
                                      || CASE WHEN p.ledger_rows = 0 THEN '; the ledger has no record at that time'
                                              ELSE format('; the ledger has %s record(s) at that time, together %s', p.ledger_rows, money_text(p.ledger_change)) END
           WHEN c.first_bill_at IS NOT NULL AND c.opening < 0 AND c.exchange_balance - c.ledger_balance = c.opening
             THEN format('the ledger holds %s %s more than the exchange from the first record read (%s) on: a ledger record the exchange does not know, or one counted twice',
                         money_text(-c.opening), c.coin, to_char(c.first_bill_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'))
           WHEN c.first_bill_at IS NOT NULL THEN format('the running balances agree through the last bill (%s); the difference arises after it, before the exchange''s figure of %s',
                                                        to_char(c.last_agree_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'),
                                                        to_char(c.snapshot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'))
           ELSE 'the exchange reports no running balance for this wallet, so the record where they part cannot be named' END
         ELSE CASE
           WHEN c.wallet LIKE '%margin' THEN 'the exchange reports no margin balance (margin records carry no running balance; no endpoint lists margin assets): not checked'
           WHEN c.account_uid = c.wallet THEN 'imported from a file: the exchange knows no balance for it'
           ELSE 'the exchange reported no balance for this wallet and coin' END
       END AS explanation
FROM classed c
LEFT JOIN parting p ON p.account_uid = c.account_uid AND p.wallet = c.wallet AND p.coin = c.coin;

COMMENT ON VIEW reconciliation IS 'Per account, wallet and coin: the exchange''s figure, the ledger''s, the difference, classed match / opening_balance / unexplained (naming the record where the running balances part) / no_snapshot, with an explanation.';
