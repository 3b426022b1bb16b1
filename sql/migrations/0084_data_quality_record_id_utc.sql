-- A position or futures-account snapshot's record_id in data_quality ended in its snapshot_at as
-- text ('@' || snapshot_at), and a timestamptz's text follows the session's zone: an analyst's
-- psql at +05:30 (initdb takes the server's zone from its machine) read '...@2026-11-30
-- 04:30:00+05:30' where a UTC session reads '...@2026-11-29 23:00:00+00', so the same row had two
-- ids (and DateStyle changed it again). Now the time is written in UTC, spelt out as an ISO, UTC
-- session always printed it (trailing zeros of the fraction dropped, then '+00'), so the ids do
-- not change where the server was UTC, as most are. Nothing else changes.
CREATE OR REPLACE VIEW data_quality AS
 SELECT 'record'::text AS kind,
    'spot_orders'::text AS source,
    spot_orders.account_uid,
    spot_orders.order_id AS record_id,
    spot_orders.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(spot_orders.problems, '; '::text) AS problem
   FROM spot_orders
  WHERE spot_orders.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'spot_fills'::text AS source,
    spot_fills.account_uid,
    spot_fills.trade_id AS record_id,
    spot_fills.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(spot_fills.problems, '; '::text) AS problem
   FROM spot_fills
  WHERE spot_fills.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'spot_bills'::text AS source,
    spot_bills.account_uid,
    spot_bills.bill_id AS record_id,
    spot_bills.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(spot_bills.problems, '; '::text) AS problem
   FROM spot_bills
  WHERE spot_bills.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'margin_records'::text AS source,
    margin_records.account_uid,
    (margin_records.margin_type || '/'::text) || margin_records.id AS record_id,
    margin_records.ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(margin_records.problems, '; '::text) AS problem
   FROM margin_records
  WHERE margin_records.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'cross_margin_orders'::text AS source,
    cross_margin_orders.account_uid,
    cross_margin_orders.order_id AS record_id,
    cross_margin_orders.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(cross_margin_orders.problems, '; '::text) AS problem
   FROM cross_margin_orders
  WHERE cross_margin_orders.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'futures_orders'::text AS source,
    futures_orders.account_uid,
    (futures_orders.product_type || '/'::text) || futures_orders.order_id AS record_id,
    futures_orders.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(futures_orders.problems, '; '::text) AS problem
   FROM futures_orders
  WHERE futures_orders.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'futures_fills'::text AS source,
    futures_fills.account_uid,
    (futures_fills.product_type || '/'::text) || futures_fills.trade_id AS record_id,
    futures_fills.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(futures_fills.problems, '; '::text) AS problem
   FROM futures_fills
  WHERE futures_fills.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'futures_bills'::text AS source,
    futures_bills.account_uid,
    (futures_bills.product_type || '/'::text) || futures_bills.bill_id AS record_id,
    futures_bills.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(futures_bills.problems, '; '::text) AS problem
   FROM futures_bills
  WHERE futures_bills.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'plan_orders'::text AS source,
    plan_orders.account_uid,
    (plan_orders.product_type || '/'::text) || plan_orders.order_id AS record_id,
    plan_orders.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(plan_orders.problems, '; '::text) AS problem
   FROM plan_orders
  WHERE plan_orders.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'deposits'::text AS source,
    deposits.account_uid,
    deposits.order_id AS record_id,
    deposits.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(deposits.problems, '; '::text) AS problem
   FROM deposits
  WHERE deposits.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'withdrawals'::text AS source,
    withdrawals.account_uid,
    withdrawals.order_id AS record_id,
    withdrawals.c_time AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(withdrawals.problems, '; '::text) AS problem
   FROM withdrawals
  WHERE withdrawals.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'transfers'::text AS source,
    transfers.account_uid,
    transfers.transfer_id AS record_id,
    transfers.ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(transfers.problems, '; '::text) AS problem
   FROM transfers
  WHERE transfers.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'tax_spot_records'::text AS source,
    tax_spot_records.account_uid,
    tax_spot_records.id AS record_id,
    tax_spot_records.ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(tax_spot_records.problems, '; '::text) AS problem
   FROM tax_spot_records
  WHERE tax_spot_records.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'tax_future_records'::text AS source,
    tax_future_records.account_uid,
    tax_future_records.id AS record_id,
    tax_future_records.ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(tax_future_records.problems, '; '::text) AS problem
   FROM tax_future_records
  WHERE tax_future_records.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'futures_account_snapshots'::text AS source,
    futures_account_snapshots.account_uid,
    (((futures_account_snapshots.product_type || '/'::text) || futures_account_snapshots.margin_coin) || '@'::text) || (to_char((futures_account_snapshots.snapshot_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD HH24:MI:SS') || rtrim(rtrim(to_char((futures_account_snapshots.snapshot_at AT TIME ZONE 'UTC'), '.US'), '0'), '.') || '+00') AS record_id,
    futures_account_snapshots.snapshot_at AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(futures_account_snapshots.problems, '; '::text) AS problem
   FROM futures_account_snapshots
  WHERE futures_account_snapshots.problems <> '{}'::text[]
UNION ALL
 SELECT 'record'::text AS kind,
    'position_snapshots'::text AS source,
    position_snapshots.account_uid,
    (((((position_snapshots.product_type || '/'::text) || position_snapshots.symbol) || '/'::text) || position_snapshots.hold_side) || '@'::text) || (to_char((position_snapshots.snapshot_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD HH24:MI:SS') || rtrim(rtrim(to_char((position_snapshots.snapshot_at AT TIME ZONE 'UTC'), '.US'), '0'), '.') || '+00') AS record_id,
    position_snapshots.snapshot_at AS ts,
    NULL::timestamp with time zone AS ts_to,
    array_to_string(position_snapshots.problems, '; '::text) AS problem
   FROM position_snapshots
  WHERE position_snapshots.problems <> '{}'::text[]
UNION ALL
 SELECT 'unclassified'::text AS kind,
    ledger.source,
    ledger.account_uid,
    (ledger.source_id || '/'::text) || ledger.leg AS record_id,
    ledger.ts,
    NULL::timestamp with time zone AS ts_to,
        CASE
            WHEN ledger.coin IS NULL THEN ('no coin: symbol '::text || COALESCE(ledger.symbol, '(none)'::text)) || ' matches no quote_coins entry (INSERT the quote coin)'::text
            ELSE 'unknown type: kept in the ledger with kind other'::text
        END AS problem
   FROM ledger
  WHERE ledger.kind = 'other'::text OR ledger.coin IS NULL
UNION ALL
 SELECT 'history_gap'::text AS kind,
    history_gaps.stream ||
        CASE
            WHEN history_gaps.partition = 'all'::text THEN ''::text
            ELSE '/'::text || history_gaps.partition
        END AS source,
    history_gaps.account_uid,
    NULL::text AS record_id,
    history_gaps.gap_from AS ts,
    history_gaps.gap_to AS ts_to,
    history_gaps.reason AS problem
   FROM history_gaps;

