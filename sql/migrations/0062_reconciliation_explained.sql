-- Reconciliation that explains itself (replaces the reconciliation view of sql/0012).
--
-- Per account, wallet and coin: the exchange's figure, the ledger's, the difference, and a status
-- that says why they differ:
--   match            the ledger equals the exchange's balance
--   opening_balance  the difference is a holding from before the first record read: the
--                    exchange's running balance and the ledger's running sum differ by the same
--                    positive amount from the first record on (history the exchange no longer
--                    serves). It becomes a holding without a known cost; opening-balances.csv
--                    (reports/opening-balances.sql) lists it for the accountant to cost
--   unexplained      anything else; the first record from which the two running balances part
--                    (and stay apart) is named
--   no_snapshot      the exchange reports no balance for this wallet: margin (E5's records carry
--                    no running balance and spec 2.7 leaves `total` undocumented; no endpoint
--                    reports margin assets) and wallets imported from a file
--
-- Running balances (view exchange_balance_series): spot bills (spot_bills.balance) and futures
-- bills (futures_bills.balance) carry the exchange's balance after each record. The walk
-- (reconciliation_walk) merges them with the ledger in time order: at each time a bill was
-- written, gap = the exchange's balance after the last bill of that time - the ledger's running
-- sum up to and including that time. The implied opening balance is the first gap. Bills and
-- ledger rows of one time are compared together, so their order inside one millisecond does not
-- matter; a gap that departs from the opening balance and comes back (a bill stamped a moment
-- before its fill) is not a parting: the parting point is the first bill after the last one that
-- agrees with the opening balance. A missing first record looks like an older opening balance;
-- only the exchange's longer history could tell them apart.
--
-- The exchange's figure: spot, the newest spot bill's balance; futures, the newest
-- futures_account_snapshots row (account_equity - unrealized_pl, as sql/0012), else the newest
-- futures bill's balance. The ledger is summed up to and including that figure's time.
--
-- Opening balances brought back by `tradeledger import transactions` (a filled
-- opening-balances.csv): an imported row whose TxHash is 'opening-balance:<uid>:<wallet>:<coin>'
-- counts for that account, wallet and coin here (view reconciliation_ledger), not for the import
-- wallet's name.

DROP VIEW reconciliation;

CREATE VIEW exchange_balance_series AS
SELECT account_uid, 'spot'::text AS wallet, coin, c_time AS ts, bill_id AS record_id, business_type AS kind,
       size AS change, balance, 'spot_bills'::text AS source
FROM spot_bills
WHERE balance IS NOT NULL AND coin IS NOT NULL AND c_time IS NOT NULL
UNION ALL
SELECT account_uid, futures_wallet(product_type), coin, c_time, bill_id, business_type,
       coalesce(amount, 0) + coalesce(fee, 0), balance, 'futures_bills'
FROM futures_bills
WHERE balance IS NOT NULL AND coin IS NOT NULL AND c_time IS NOT NULL;

COMMENT ON VIEW exchange_balance_series IS 'Every exchange record that carries the balance after it (spot and futures bills): the running balance the ledger is walked against.';

CREATE VIEW reconciliation_ledger AS
SELECT account_uid, wallet, coin, ts, amount, kind, source, source_id, leg
FROM ledger
WHERE coin IS NOT NULL AND ts IS NOT NULL
  AND NOT (source = 'imported_transactions' AND coalesce(order_id, '') LIKE 'opening-balance:%')
UNION ALL
SELECT split_part(i.tx_hash, ':', 2), split_part(i.tx_hash, ':', 3), i.received_currency, i.ts, i.received_amount,
       'opening_balance', 'imported_transactions', i.source_id, 'received'
FROM imported_transactions i
WHERE i.tx_hash LIKE 'opening-balance:%' AND i.received_amount IS NOT NULL;

COMMENT ON VIEW reconciliation_ledger IS 'The ledger as reconciliation reads it: imported opening balances (TxHash opening-balance:<uid>:<wallet>:<coin>) count for the account and wallet they open.';

CREATE VIEW reconciliation_walk AS
WITH bills AS (
  SELECT account_uid, wallet, coin, ts,
         (array_agg(balance ORDER BY length(record_id) DESC, record_id DESC))[1] AS balance,
         (array_agg(record_id ORDER BY length(record_id), record_id))[1] AS record_id,
         (array_agg(kind ORDER BY length(record_id), record_id))[1] AS record_kind,
         (array_agg(change ORDER BY length(record_id), record_id))[1] AS record_change,
         min(source) AS record_source,
         count(*) AS records
  FROM exchange_balance_series
  GROUP BY 1, 2, 3, 4
), moves AS (
  SELECT account_uid, wallet, coin, ts, sum(amount) AS amount, count(*) AS rows
  FROM reconciliation_ledger
  GROUP BY 1, 2, 3, 4
), merged AS (
  SELECT coalesce(b.account_uid, m.account_uid) AS account_uid, coalesce(b.wallet, m.wallet) AS wallet,
         coalesce(b.coin, m.coin) AS coin, coalesce(b.ts, m.ts) AS ts,
         b.balance, b.record_source, b.record_id, b.record_kind, b.record_change, coalesce(b.records, 0) AS records,
         coalesce(m.amount, 0) AS ledger_change, coalesce(m.rows, 0) AS ledger_rows
  FROM bills b
  FULL JOIN moves m ON m.account_uid = b.account_uid AND m.wallet = b.wallet AND m.coin = b.coin AND m.ts = b.ts
)
SELECT account_uid, wallet, coin, ts, balance AS exchange_balance,
       sum(ledger_change) OVER w AS ledger_balance,
       balance - sum(ledger_change) OVER w AS gap,
       record_source, record_id, record_kind, record_change, records, ledger_change, ledger_rows
FROM merged
WINDOW w AS (PARTITION BY account_uid, wallet, coin ORDER BY ts);

COMMENT ON VIEW reconciliation_walk IS 'The exchange''s running balance (bills) beside the ledger''s running sum, per account, wallet, coin and time; gap = exchange - ledger where a bill was written.';

-- The walk is read once (a CTE used twice is materialised): the ledger's sums come from it too,
-- so the ledger view is scanned once.
CREATE VIEW reconciliation AS
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
  SELECT coalesce(f.account_uid, s.account_uid) AS account_uid, coalesce(f.wallet, s.wallet) AS wallet,
         coalesce(f.coin, s.coin) AS coin,
         coalesce(f.snapshot_at, s.last_bill_at) AS snapshot_at,
         CASE WHEN f.account_uid IS NOT NULL THEN 'futures_account_snapshots' WHEN s.wallet = 'spot' THEN 'spot_bills' ELSE 'futures_bills' END AS source,
         coalesce(f.balance, s.last_balance) AS balance
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
  SELECT j.*, se.opening, se.first_bill_at, se.last_agree_at,
         j.exchange_balance - j.ledger_balance AS difference,
         CASE WHEN j.exchange_balance IS NULL THEN 'no_snapshot'
              WHEN j.exchange_balance = j.ledger_balance THEN 'match'
              WHEN se.opening > 0 AND j.exchange_balance - j.ledger_balance = se.opening THEN 'opening_balance'
              ELSE 'unexplained' END AS status
  FROM joined j
  LEFT JOIN series se ON se.account_uid = j.account_uid AND se.wallet = j.wallet AND se.coin = j.coin
)
SELECT c.account_uid, c.wallet, c.coin, c.snapshot_at, c.snapshot_source,
       c.exchange_balance, c.ledger_balance, c.ledger_rows, c.difference, c.status,
       CASE WHEN c.status = 'opening_balance' THEN c.opening END AS opening_balance,
       CASE WHEN c.status = 'opening_balance' THEN date_trunc('minute', least(c.first_bill_at, c.first_ledger_at)) - interval '1 minute' END AS opening_at,
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
         WHEN 'opening_balance' THEN format('%s %s was held before the first record read (%s): history the exchange no longer serves, a holding without a known cost; give its cost in opening-balances.csv and import it',
                                            money_text(c.opening), c.coin, to_char(least(c.first_bill_at, c.first_ledger_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'))
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
