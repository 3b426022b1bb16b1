-- Records whose status is not final yet (issue 20 item 2): a deposit or withdrawal still pending,
-- a transfer still Processing, a spot or cross-margin order still live or partially filled. The
-- sync re-checks each of them on every run until it is final, however old (src/extract/recheckOpen.ts:
-- by id where the endpoint answers one record, else by re-reading the moment it happened);
-- `tradeledger status` lists them per account and stream (count, oldest); data-quality.csv flags
-- those open longer than `open_limit` (docs/ledger.md, "Records that are not final yet").
-- Columns: stream (the sync stream), source (table), account_uid, record_id, status (as sent),
--   since (the record's creation time), partition_hint (the column that names the partition the
--   record is read under: E13's symbol, E19's sending account; NULL for a single-partition
--   stream), open_limit (how long it may stay open before data-quality.csv flags it).
CREATE VIEW open_records AS
SELECT 'deposits'::text AS stream, 'deposits'::text AS source, account_uid, order_id AS record_id, status, c_time AS since,
       NULL::text AS partition_hint, interval '3 days' AS open_limit
FROM deposits WHERE norm_status(status) = 'pending'
UNION ALL
SELECT 'withdrawals', 'withdrawals', account_uid, order_id, status, c_time, NULL, interval '3 days'
FROM withdrawals WHERE norm_status(status) = 'pending'
UNION ALL
SELECT 'transfers', 'transfers', account_uid, transfer_id, status, ts, from_user_id, interval '3 days'
FROM transfers WHERE norm_status(status) = 'pending'
UNION ALL
SELECT 'spotOrders', 'spot_orders', account_uid, order_id, status, c_time, NULL, interval '30 days'
FROM spot_orders WHERE norm_status(status) IN ('live', 'partially_filled')
UNION ALL
SELECT 'crossMarginOrders', 'cross_margin_orders', account_uid, order_id, status, c_time, symbol, interval '30 days'
FROM cross_margin_orders WHERE norm_status(status) IN ('live', 'partially_filled');

COMMENT ON VIEW open_records IS 'Records whose status is not final yet; re-checked by every sync until final.';

-- The open records are few beside the history: partial indexes keep finding them (every sync,
-- every status) proportional to what is open, not to the table.
CREATE INDEX deposits_open ON deposits (account_uid, c_time) WHERE norm_status(status) = 'pending';
CREATE INDEX withdrawals_open ON withdrawals (account_uid, c_time) WHERE norm_status(status) = 'pending';
CREATE INDEX transfers_open ON transfers (account_uid, ts) WHERE norm_status(status) = 'pending';
CREATE INDEX spot_orders_open ON spot_orders (account_uid, c_time) WHERE norm_status(status) IN ('live', 'partially_filled');
CREATE INDEX cross_margin_orders_open ON cross_margin_orders (account_uid, c_time) WHERE norm_status(status) IN ('live', 'partially_filled');
