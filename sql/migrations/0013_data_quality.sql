-- Data quality: everything a report's reader should distrust or know is missing.
--   kind 'record'        a stored row whose `problems` is non-empty (raw kept, typed columns may be NULL)
--   kind 'unclassified'  a ledger row the rules could not classify (kind 'other') or whose coin is
--                        unknown (a spot symbol that matches no quote_coins entry)
--   kind 'history_gap'   history an endpoint's horizon hides (history_gaps)
-- Columns: kind, source (table or stream), account_uid, record_id, ts, ts_to (gaps only), problem.

CREATE VIEW data_quality AS
SELECT 'record'::text AS kind, 'spot_orders'::text AS source, account_uid, order_id AS record_id, c_time AS ts, NULL::timestamptz AS ts_to, array_to_string(problems, '; ') AS problem FROM spot_orders WHERE problems <> '{}'
UNION ALL SELECT 'record', 'spot_fills', account_uid, trade_id, c_time, NULL, array_to_string(problems, '; ') FROM spot_fills WHERE problems <> '{}'
UNION ALL SELECT 'record', 'spot_bills', account_uid, bill_id, c_time, NULL, array_to_string(problems, '; ') FROM spot_bills WHERE problems <> '{}'
UNION ALL SELECT 'record', 'margin_records', account_uid, margin_type || '/' || id, ts, NULL, array_to_string(problems, '; ') FROM margin_records WHERE problems <> '{}'
UNION ALL SELECT 'record', 'cross_margin_orders', account_uid, order_id, c_time, NULL, array_to_string(problems, '; ') FROM cross_margin_orders WHERE problems <> '{}'
UNION ALL SELECT 'record', 'futures_orders', account_uid, product_type || '/' || order_id, c_time, NULL, array_to_string(problems, '; ') FROM futures_orders WHERE problems <> '{}'
UNION ALL SELECT 'record', 'futures_fills', account_uid, product_type || '/' || trade_id, c_time, NULL, array_to_string(problems, '; ') FROM futures_fills WHERE problems <> '{}'
UNION ALL SELECT 'record', 'futures_bills', account_uid, product_type || '/' || bill_id, c_time, NULL, array_to_string(problems, '; ') FROM futures_bills WHERE problems <> '{}'
UNION ALL SELECT 'record', 'plan_orders', account_uid, product_type || '/' || order_id, c_time, NULL, array_to_string(problems, '; ') FROM plan_orders WHERE problems <> '{}'
UNION ALL SELECT 'record', 'deposits', account_uid, order_id, c_time, NULL, array_to_string(problems, '; ') FROM deposits WHERE problems <> '{}'
UNION ALL SELECT 'record', 'withdrawals', account_uid, order_id, c_time, NULL, array_to_string(problems, '; ') FROM withdrawals WHERE problems <> '{}'
UNION ALL SELECT 'record', 'transfers', account_uid, transfer_id, ts, NULL, array_to_string(problems, '; ') FROM transfers WHERE problems <> '{}'
UNION ALL SELECT 'record', 'tax_spot_records', account_uid, id, ts, NULL, array_to_string(problems, '; ') FROM tax_spot_records WHERE problems <> '{}'
UNION ALL SELECT 'record', 'tax_future_records', account_uid, id, ts, NULL, array_to_string(problems, '; ') FROM tax_future_records WHERE problems <> '{}'
UNION ALL SELECT 'record', 'futures_account_snapshots', account_uid, product_type || '/' || margin_coin || '@' || snapshot_at, snapshot_at, NULL, array_to_string(problems, '; ') FROM futures_account_snapshots WHERE problems <> '{}'
UNION ALL SELECT 'record', 'position_snapshots', account_uid, product_type || '/' || symbol || '/' || hold_side || '@' || snapshot_at, snapshot_at, NULL, array_to_string(problems, '; ') FROM position_snapshots WHERE problems <> '{}'
UNION ALL
SELECT 'unclassified', source, account_uid, source_id || '/' || leg, ts, NULL,
       CASE WHEN coin IS NULL THEN 'no coin: symbol ' || coalesce(symbol, '(none)') || ' matches no quote_coins entry (INSERT the quote coin)'
            ELSE 'unknown type: kept in the ledger with kind other' END
FROM ledger WHERE kind = 'other' OR coin IS NULL
UNION ALL
SELECT 'history_gap', stream || CASE WHEN partition = 'all' THEN '' ELSE '/' || partition END, account_uid,
       NULL, gap_from, gap_to, reason
FROM history_gaps;

COMMENT ON VIEW data_quality IS 'Flagged records, unclassified ledger rows and known history gaps.';
