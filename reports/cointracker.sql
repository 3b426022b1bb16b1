-- cointracker.csv: the 8-column CoinTracker CSV, built from tax_transactions (sql/0014).
-- Date is UTC, written MM/DD/YYYY HH:MM:SS.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: Date, Received Quantity, Received Currency, Sent Quantity, Sent Currency, Fee Amount,
--   Fee Currency, Tag
-- Tags: margin interest, liquidation fees and margin/futures fee rows -> margin fee; realized PnL
--   and funding -> margin gain or margin loss by sign; everything else no tag. A fee row on its
--   own (several fee coins on one fill, a spot fee) is written as a fee-only row.
SELECT to_char(ts AT TIME ZONE 'UTC', 'MM/DD/YYYY HH24:MI:SS') AS "Date",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' AND sent_amount IS NOT NULL THEN NULL ELSE received_amount END) AS "Received Quantity",
       CASE WHEN kind = 'fee' AND wallet = 'spot' AND sent_amount IS NOT NULL THEN NULL ELSE received_coin END AS "Received Currency",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' THEN NULL ELSE sent_amount END) AS "Sent Quantity",
       CASE WHEN kind = 'fee' AND wallet = 'spot' THEN NULL ELSE sent_coin END AS "Sent Currency",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' THEN sent_amount ELSE fee_amount END) AS "Fee Amount",
       CASE WHEN kind = 'fee' AND wallet = 'spot' THEN sent_coin ELSE fee_coin END AS "Fee Currency",
       CASE WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin fee'
            WHEN kind = 'fee' AND wallet <> 'spot' AND sent_amount IS NOT NULL THEN 'margin fee'
            WHEN kind IN ('realized_pnl', 'funding_fee') AND received_amount IS NOT NULL THEN 'margin gain'
            WHEN kind IN ('realized_pnl', 'funding_fee') THEN 'margin loss'
            ELSE '' END AS "Tag"
FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account')
ORDER BY ts, account_uid, source, source_id, kind;
