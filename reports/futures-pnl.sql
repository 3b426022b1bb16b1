-- futures-pnl.csv: realized PnL, trading fees and funding from the futures bills, one row per
-- bill (a position close carries its PnL and its fee on one row; funding bills stand alone).
-- Transfer bills are left out (they are in the ledger as transfer_in/out).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, account_uid, product_type, wallet, symbol, coin, business_type,
--   bill_id, realized_pnl, trading_fee, funding_fee, fee_by_coupon, net (realized_pnl + trading_fee
--   + funding_fee; signed, > 0 in),
--   demo (true: a demo-trading row, sql/schema/views/ledger.sql; kept in every native CSV, left out of tax files)
SELECT to_char(c_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(c_time AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       account_uid, product_type, futures_wallet(product_type) AS wallet, symbol, coin, business_type, bill_id,
       money_text(CASE WHEN kind = 'realized_pnl' THEN amount ELSE 0 END) AS realized_pnl,
       money_text(coalesce(fee, 0)) AS trading_fee,
       money_text(CASE WHEN kind = 'funding_fee' THEN amount ELSE 0 END) AS funding_fee,
       money_text(fee_by_coupon) AS fee_by_coupon,
       money_text(CASE WHEN kind IN ('realized_pnl', 'funding_fee') THEN amount ELSE 0 END + coalesce(fee, 0)) AS net,
       (account_uid IN (SELECT uid FROM accounts WHERE kind = 'demo') OR futures_wallet(product_type) IN ('susdt_futures', 'scoin_futures', 'susdc_futures'))::text AS demo
FROM (
  SELECT b.*,
         CASE WHEN business_type LIKE '%settle_fee%' OR business_type LIKE '%funding%' THEN 'funding_fee'
              WHEN business_type LIKE '%close%' OR business_type LIKE '%burst%' OR business_type LIKE '%delivery%'
                   OR business_type LIKE '%liquidat%' THEN 'realized_pnl'
              WHEN business_type LIKE '%trans%' THEN 'transfer'
              ELSE 'other' END AS kind
  FROM futures_bills b
) b
WHERE kind <> 'transfer'
  AND c_time >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND c_time < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR account_uid = :'account')
  AND (kind <> 'other' OR coalesce(fee, 0) <> 0 OR coalesce(amount, 0) <> 0)
ORDER BY c_time, account_uid, product_type, bill_id;
