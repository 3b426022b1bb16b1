-- An opening balance (held before the first record read) was explained as "history the exchange
-- no longer serves". Often it is history the sync did not ask for: a first sync from --since, or
-- from its default start two years back, and a later `tradeledger sync --since` now reads it
-- (migration 0082, the backfill). The text names both fixes; nothing else changes.
CREATE OR REPLACE VIEW reconciliation AS
 WITH walk AS (
         SELECT reconciliation_walk.account_uid,
            reconciliation_walk.wallet,
            reconciliation_walk.coin,
            reconciliation_walk.ts,
            reconciliation_walk.exchange_balance,
            reconciliation_walk.ledger_balance,
            reconciliation_walk.gap,
            reconciliation_walk.record_source,
            reconciliation_walk.record_id,
            reconciliation_walk.record_kind,
            reconciliation_walk.record_change,
            reconciliation_walk.records,
            reconciliation_walk.ledger_change,
            reconciliation_walk.ledger_rows
           FROM reconciliation_walk
        ), points AS (
         SELECT w.account_uid,
            w.wallet,
            w.coin,
            w.ts,
            w.exchange_balance,
            w.ledger_balance,
            w.gap,
            w.record_source,
            w.record_id,
            w.record_kind,
            w.record_change,
            w.records,
            w.ledger_change,
            w.ledger_rows,
            first_value(w.gap) OVER (PARTITION BY w.account_uid, w.wallet, w.coin ORDER BY w.ts) AS opening
           FROM walk w
          WHERE w.exchange_balance IS NOT NULL
        ), series AS (
         SELECT points.account_uid,
            points.wallet,
            points.coin,
            min(points.opening) AS opening,
            min(points.ts) AS first_bill_at,
            max(points.ts) AS last_bill_at,
            (array_agg(points.exchange_balance ORDER BY points.ts DESC))[1] AS last_balance,
            max(points.ts) FILTER (WHERE points.gap = points.opening) AS last_agree_at
           FROM points
          GROUP BY points.account_uid, points.wallet, points.coin
        ), parting AS (
         SELECT DISTINCT ON (p_1.account_uid, p_1.wallet, p_1.coin) p_1.account_uid,
            p_1.wallet,
            p_1.coin,
            p_1.ts,
            p_1.exchange_balance,
            p_1.ledger_balance,
            p_1.gap,
            p_1.record_source,
            p_1.record_id,
            p_1.record_kind,
            p_1.record_change,
            p_1.records,
            p_1.ledger_change,
            p_1.ledger_rows,
            p_1.opening
           FROM points p_1
             JOIN series s USING (account_uid, wallet, coin)
          WHERE p_1.ts > s.last_agree_at
          ORDER BY p_1.account_uid, p_1.wallet, p_1.coin, p_1.ts
        ), futures_snaps AS (
         SELECT DISTINCT ON (futures_account_snapshots.account_uid, futures_account_snapshots.product_type, futures_account_snapshots.margin_coin) futures_account_snapshots.account_uid,
            futures_wallet(futures_account_snapshots.product_type) AS wallet,
            futures_account_snapshots.margin_coin AS coin,
            futures_account_snapshots.snapshot_at,
            futures_account_snapshots.account_equity - COALESCE(futures_account_snapshots.unrealized_pl, 0::numeric) AS balance
           FROM futures_account_snapshots
          WHERE futures_account_snapshots.account_equity IS NOT NULL
          ORDER BY futures_account_snapshots.account_uid, futures_account_snapshots.product_type, futures_account_snapshots.margin_coin, futures_account_snapshots.snapshot_at DESC
        ), snaps AS (
         SELECT COALESCE(s.account_uid, f.account_uid) AS account_uid,
            COALESCE(s.wallet, f.wallet) AS wallet,
            COALESCE(s.coin, f.coin) AS coin,
            COALESCE(s.last_bill_at, f.snapshot_at) AS snapshot_at,
                CASE
                    WHEN s.account_uid IS NULL THEN 'futures_account_snapshots'::text
                    WHEN s.wallet = 'spot'::text THEN 'spot_bills'::text
                    WHEN s.wallet ~~ '%margin'::text THEN 'margin_records'::text
                    ELSE 'futures_bills'::text
                END AS source,
            COALESCE(s.last_balance, f.balance) AS balance
           FROM series s
             FULL JOIN futures_snaps f ON f.account_uid = s.account_uid AND f.wallet = s.wallet AND f.coin = s.coin
        ), sums AS (
         SELECT w.account_uid,
            w.wallet,
            w.coin,
            sum(w.ledger_change) FILTER (WHERE s.snapshot_at IS NULL OR w.ts <= s.snapshot_at) AS ledger_sum,
            sum(w.ledger_rows) FILTER (WHERE s.snapshot_at IS NULL OR w.ts <= s.snapshot_at) AS ledger_rows,
            min(w.ts) FILTER (WHERE w.ledger_rows > 0) AS first_ledger_at
           FROM walk w
             LEFT JOIN snaps s ON s.account_uid = w.account_uid AND s.wallet = w.wallet AND s.coin = w.coin
          GROUP BY w.account_uid, w.wallet, w.coin
         HAVING sum(w.ledger_rows) > 0::numeric
        ), joined AS (
         SELECT COALESCE(s.account_uid, m.account_uid) AS account_uid,
            COALESCE(s.wallet, m.wallet) AS wallet,
            COALESCE(s.coin, m.coin) AS coin,
            s.snapshot_at,
            s.source AS snapshot_source,
            s.balance AS exchange_balance,
            COALESCE(m.ledger_sum, 0::numeric) AS ledger_balance,
            COALESCE(m.ledger_rows, 0::numeric) AS ledger_rows,
            m.first_ledger_at
           FROM snaps s
             FULL JOIN sums m ON m.account_uid = s.account_uid AND m.wallet = s.wallet AND m.coin = s.coin
        ), classed AS (
         SELECT j.account_uid,
            j.wallet,
            j.coin,
            j.snapshot_at,
            j.snapshot_source,
            j.exchange_balance,
            j.ledger_balance,
            j.ledger_rows,
            j.first_ledger_at,
            o.opening,
            se.first_bill_at,
            se.last_agree_at,
            j.exchange_balance - j.ledger_balance AS difference,
                CASE
                    WHEN j.exchange_balance IS NULL THEN 'no_snapshot'::text
                    WHEN j.exchange_balance = j.ledger_balance THEN 'match'::text
                    WHEN o.opening > 0::numeric AND (j.exchange_balance - j.ledger_balance) = o.opening THEN 'opening_balance'::text
                    ELSE 'unexplained'::text
                END AS status
           FROM joined j
             LEFT JOIN series se ON se.account_uid = j.account_uid AND se.wallet = j.wallet AND se.coin = j.coin
             CROSS JOIN LATERAL ( SELECT
                        CASE
                            WHEN se.account_uid IS NULL AND j.ledger_rows = 0::numeric AND j.exchange_balance > 0::numeric THEN j.exchange_balance
                            ELSE se.opening
                        END AS opening) o
        )
 SELECT c.account_uid,
    c.wallet,
    c.coin,
    c.snapshot_at,
    c.snapshot_source,
    c.exchange_balance,
    c.ledger_balance,
    c.ledger_rows,
    c.difference,
    c.status,
        CASE
            WHEN c.status = 'opening_balance'::text THEN c.opening
            ELSE NULL::numeric
        END AS opening_balance,
        CASE
            WHEN c.status = 'opening_balance'::text THEN date_trunc('minute'::text, COALESCE(LEAST(c.first_bill_at, c.first_ledger_at), c.snapshot_at)) - '00:01:00'::interval
            ELSE NULL::timestamp with time zone
        END AS opening_at,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.ts
            ELSE NULL::timestamp with time zone
        END AS parted_at,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.record_source
            ELSE NULL::text
        END AS parted_source,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.record_id
            ELSE NULL::text
        END AS parted_record_id,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.record_kind
            ELSE NULL::text
        END AS parted_kind,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.record_change
            ELSE NULL::numeric
        END AS parted_change,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.exchange_balance
            ELSE NULL::numeric
        END AS parted_exchange_balance,
        CASE
            WHEN c.status = 'unexplained'::text THEN p.ledger_balance
            ELSE NULL::numeric
        END AS parted_ledger_balance,
        CASE
            WHEN c.status = 'unexplained'::text THEN c.last_agree_at
            ELSE NULL::timestamp with time zone
        END AS agreed_until,
        CASE c.status
            WHEN 'match'::text THEN 'the ledger equals the exchange''s balance'::text
            WHEN 'opening_balance'::text THEN
            CASE
                WHEN c.ledger_rows = 0::numeric AND c.first_bill_at IS NULL THEN format('%s %s was held all through the history read (no record of this wallet and coin was read, and the exchange reports it at %s): history before what was read, a holding without a known cost. If the exchange still serves that history, tradeledger sync --since an earlier date reads it; otherwise give its cost in opening-balances.csv and import it'::text, money_text(c.opening), c.coin, to_char((c.snapshot_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS"Z"'::text))
                ELSE format('%s %s was held before the first record read (%s): history before what was read, a holding without a known cost. If the exchange still serves that history, tradeledger sync --since an earlier date reads it; otherwise give its cost in opening-balances.csv and import it'::text, money_text(c.opening), c.coin, to_char((LEAST(c.first_bill_at, c.first_ledger_at) AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS"Z"'::text))
            END
            WHEN 'unexplained'::text THEN
            CASE
                WHEN p.ts IS NOT NULL THEN format('the running balances part at %s %s (%s, %s %s, %s): the exchange''s balance is %s there and the ledger''s %s, a gap of %s where it was %s until %s'::text, p.record_source, p.record_id, COALESCE(p.record_kind, '?'::text), money_text(p.record_change), c.coin, to_char((p.ts AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS.MS"Z"'::text), money_text(p.exchange_balance), money_text(p.ledger_balance), money_text(p.gap), money_text(c.opening), to_char((c.last_agree_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS.MS"Z"'::text)) ||
                CASE
                    WHEN p.ledger_rows = 0 THEN '; the ledger has no record at that time'::text
                    ELSE format('; the ledger has %s record(s) at that time, together %s'::text, p.ledger_rows, money_text(p.ledger_change))
                END
                WHEN c.first_bill_at IS NOT NULL AND c.opening < 0::numeric AND (c.exchange_balance - c.ledger_balance) = c.opening THEN format('the ledger holds %s %s more than the exchange from the first record read (%s) on: a ledger record the exchange does not know, or one counted twice'::text, money_text(- c.opening), c.coin, to_char((c.first_bill_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS"Z"'::text))
                WHEN c.first_bill_at IS NOT NULL THEN format('the running balances agree through the last bill (%s); the difference arises after it, before the exchange''s figure of %s'::text, to_char((c.last_agree_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS"Z"'::text), to_char((c.snapshot_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS"Z"'::text))
                ELSE 'the exchange reports no running balance for this wallet, so the record where they part cannot be named'::text
            END
            ELSE
            CASE
                WHEN c.wallet ~~ '%margin'::text THEN 'the exchange reports no margin balance: the margin records'' total does not read as this wallet''s running balance (too many of its records do not follow from the one before), and no endpoint lists margin assets; not checked'::text
                WHEN c.account_uid = c.wallet THEN 'imported from a file: the exchange knows no balance for it'::text
                ELSE 'the exchange reported no balance for this wallet and coin'::text
            END
        END AS explanation
   FROM classed c
     LEFT JOIN parting p ON p.account_uid = c.account_uid AND p.wallet = c.wallet AND p.coin = c.coin;
