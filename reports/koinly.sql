-- koinly.csv: the Koinly universal CSV, built from tax_transactions (sql/0014): one row per
-- transaction, fee folded in where it is one charge. Dates are UTC, as Koinly requires.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: Date (YYYY-MM-DD HH:mm UTC), Sent Amount, Sent Currency, Received Amount,
--   Received Currency, Fee Amount, Fee Currency, Net Worth Amount, Net Worth Currency (left empty:
--   no prices are stored), Label, Description, TxHash
-- Labels: borrow -> margin loan, repay -> margin repayment, margin interest, liquidation fees and
--   margin/futures fees -> margin fee, spot fee rows -> cost, fee rebates -> fee refund,
--   realized PnL and funding -> realized gain; everything else no label.
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') AS "Date",
       money_text(sent_amount) AS "Sent Amount", sent_coin AS "Sent Currency",
       money_text(received_amount) AS "Received Amount", received_coin AS "Received Currency",
       money_text(fee_amount) AS "Fee Amount", fee_coin AS "Fee Currency",
       NULL::text AS "Net Worth Amount", NULL::text AS "Net Worth Currency",
       CASE WHEN kind = 'borrow' THEN 'margin loan'
            WHEN kind = 'repay' THEN 'margin repayment'
            WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin fee'
            WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'fee refund'
            WHEN kind = 'fee' AND wallet = 'spot' THEN 'cost'
            WHEN kind = 'fee' THEN 'margin fee'
            WHEN kind IN ('realized_pnl', 'funding_fee') THEN 'realized gain'
            ELSE '' END AS "Label",
       kind || ' ' || wallet || ' ' || account_uid || ' ' || source || ':' || source_id
         || coalesce(' ' || symbol, '') AS "Description",
       CASE WHEN source IN ('deposits', 'withdrawals') THEN ref END AS "TxHash"
FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account')
ORDER BY ts, account_uid, source, source_id, kind;
