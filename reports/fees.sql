-- fees.csv: every fee-like ledger row of the period (each counted once, as in the ledger):
-- trading and withdrawal fees (kind fee), margin interest, liquidation fees and futures funding.
-- Spot fill fees carry the feeDetail breakdown from the fees table.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- Columns: time_utc, time_local, account_uid, wallet, kind, coin, paid (> 0 left the account,
--   < 0 a rebate or funding received), source, source_id, leg, order_id, symbol,
--   platform_deducted, coupon_covered, payable_in_received_coin, fee_format, rebate,
--   demo (true: a demo-trading row, sql/schema/views/ledger.sql; kept in every native CSV, left out of tax files)
SELECT to_char(l.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(l.ts AT TIME ZONE :'tz', 'YYYY-MM-DD HH24:MI:SS.MS') AS time_local,
       l.account_uid, l.wallet, l.kind, l.coin, money_text(-l.amount) AS paid, l.source, l.source_id, l.leg,
       l.order_id, l.symbol, money_text(fe.platform_deducted) AS platform_deducted,
       money_text(fe.coupon_covered) AS coupon_covered,
       money_text(fe.payable_in_received_coin) AS payable_in_received_coin,
       fe.format AS fee_format, coalesce(fe.rebate, l.amount > 0)::text AS rebate, l.demo::text AS demo
FROM ledger l
LEFT JOIN fees fe ON l.source = 'spot_fills' AND fe.source = 'spot_fills' AND fe.account_uid = l.account_uid
  AND fe.source_id = l.source_id AND l.leg = 'fee:' || fe.seq
WHERE l.kind IN ('fee', 'interest', 'liquidation_fee', 'funding_fee')
  AND l.ts >= (:'from')::timestamp AT TIME ZONE :'tz'
  AND l.ts < (:'to')::timestamp AT TIME ZONE :'tz'
  AND (:'account' = '' OR l.account_uid = :'account')
ORDER BY l.ts, l.account_uid, l.source, l.source_id, l.leg;
