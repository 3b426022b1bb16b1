-- cointracker.csv: the 8-column CoinTracker CSV, built from tax_transactions (sql/schema/functions/tax_transactions.sql).
-- Date is UTC, written MM/DD/YYYY HH:MM:SS
-- (https://support.cointracker.io/hc/en-us/articles/4413071299729-Convert-your-transaction-history-to-CoinTracker-CSV).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v include_demo=false):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   include_demo  true to include demo-trading (paper) accounts' rows (no Tag and no value column
--              marks them: CoinTracker's 8 columns have no description);
--              false (the default of `tradeledger report`) leaves them out (sql/schema/functions/tax_transactions.sql)
-- Columns: Date, Received Quantity, Received Currency, Sent Quantity, Sent Currency, Fee Amount,
--   Fee Currency, Tag
-- One file = one CoinTracker wallet covering every exported account and wallet. CoinTracker taxes
-- an untagged Receive as Other Income and an untagged Send as a disposal, and pairs transfers only
-- between two of the user's wallets ("What is a transaction type?",
-- https://support.cointracker.io/hc/en-us/articles/15888597060881-What-is-a-transaction-type-;
-- https://support.cointracker.io/hc/en-us/articles/4413071374481-How-to-fix-transfers-marked-as-Send-transactions).
-- So own-account movements (own_account) are left out (both legs are inside this one wallet and
-- net to zero), and so are borrow and repay: CoinTracker documents no CSV tag for a loan, and an
-- untagged borrow would be income. Tags (sources in docs/ledger.md): interest, liquidation fee,
-- margin and futures fee rows -> margin fee; their rebates -> margin rebate; realized PnL, funding
-- and risk-fund compensation -> margin gain / margin loss by sign; confiscated -> lost; spot fee
-- rows are fee-only rows; margin deal_in/deal_out and exchange_in/exchange_out are left out (below).
SELECT to_char(ts AT TIME ZONE 'UTC', 'MM/DD/YYYY HH24:MI:SS') AS "Date",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' AND sent_amount IS NOT NULL THEN NULL ELSE received_amount END) AS "Received Quantity",
       CASE WHEN kind = 'fee' AND wallet = 'spot' AND sent_amount IS NOT NULL THEN NULL ELSE received_coin END AS "Received Currency",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' THEN NULL ELSE sent_amount END) AS "Sent Quantity",
       CASE WHEN kind = 'fee' AND wallet = 'spot' THEN NULL ELSE sent_coin END AS "Sent Currency",
       money_text(CASE WHEN kind = 'fee' AND wallet = 'spot' THEN sent_amount ELSE fee_amount END) AS "Fee Amount",
       CASE WHEN kind = 'fee' AND wallet = 'spot' THEN sent_coin ELSE fee_coin END AS "Fee Currency",
       -- An imported line's Koinly label, as CoinTracker's CSV tag of the same meaning ([C2]); an
       -- income label needs none (an untagged Receive is Other Income, [C1]).
       CASE WHEN kind = 'deposit' AND imported_label IN ('staking', 'airdrop', 'mining') THEN imported_label
            WHEN kind = 'withdrawal' AND imported_label IN ('lost', 'gift', 'donation') THEN imported_label
            WHEN kind = 'withdrawal' AND imported_label = 'stolen' THEN 'lost'
            WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin fee'
            WHEN kind = 'fee' AND wallet <> 'spot' AND sent_amount IS NOT NULL THEN 'margin fee'
            WHEN kind = 'fee' AND wallet <> 'spot' THEN 'margin rebate'
            WHEN kind IN ('realized_pnl', 'funding_fee', 'compensate') AND received_amount IS NOT NULL THEN 'margin gain'
            WHEN kind IN ('realized_pnl', 'funding_fee', 'compensate') THEN 'margin loss'
            WHEN kind = 'confiscated' THEN 'lost'
            ELSE '' END AS "Tag"
FROM (
  SELECT t.*, CASE WHEN lc.id IS NOT NULL THEN lc.label ELSE lower(trim(coalesce(it.label, ''))) END AS imported_label,
         lc.id AS correction_id, lc.classification AS correction
  FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account', (:'include_demo')::boolean) t
  LEFT JOIN imported_transactions it ON t.source = 'imported_transactions' AND it.source_id = t.source_id
  -- An accountant's classification (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; tradeledger classify) speaks
  -- as the Koinly label it stands for (correction_label), instead of an imported line's own.
  LEFT JOIN ledger_corrections_in_force lc ON lc.classification IS NOT NULL AND t.kind IN ('deposit', 'withdrawal')
    AND lc.account_uid = t.account_uid AND lc.wallet = t.wallet AND lc.source = t.source AND lc.source_id = t.source_id
) t
WHERE NOT own_account AND kind NOT IN ('borrow', 'repay')
  -- One-sided margin trade legs (E5 gives each leg of a margin trade as its own record): left out
  -- (issue 21). CoinTracker defines the margin tag as "You traded assets through a margin order"
  -- ([C2]), a trade; on a lone Receive or Send its effect is not documented, and untagged a
  -- Receive is taxed as Other Income ([C1]). data-quality.csv lists each (kind tool_left_out); the
  -- manifest's coverage.leftOut says so; the file's balance differs by their net.
  AND NOT (source = 'margin_records' AND kind IN ('trade_buy', 'trade_sell', 'exchange_in', 'exchange_out'))
ORDER BY ts, account_uid, source, source_id, kind;
