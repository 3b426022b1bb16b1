-- cointracking.csv: the CoinTracking CSV import, built from tax_transactions (sql/0014, sql/0020).
-- Date is UTC, written YYYY-MM-DD HH:MM:SS (choose that format and UTC in the import dialog).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v include_demo=false):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   include_demo  true to include demo-trading (paper) accounts' rows (valued 0, marked DEMO);
--              false (the default of `tradeledger report`) leaves them out (sql/0061)
-- Columns: Type, Buy Amount, Buy Currency, Sell Amount, Sell Currency, Fee, Fee Currency,
--   Exchange (account and wallet), Trade-Group (wallet), Comment, Date
-- Every row names its account and wallet in Exchange, so CoinTracking keeps one balance per
-- wallet. Own-account movements are kept, as Deposit and Withdrawal on each wallet: CoinTracking
-- treats both as non-taxable transfers of currencies you own
-- (https://cointracking.freshdesk.com/en/support/solutions/articles/29000034379-expanded-transaction-types-legacy-),
-- so each wallet's balance matches the ledger and no gain or income arises.
-- Types (sources in docs/ledger.md): trade -> Trade; deposit, withdrawal, transfers, borrow,
--   repay, margin deal/exchange legs -> Deposit / Withdrawal; interest -> Borrowing Fee;
--   liquidation fee and other fees -> Other Fee; fee rebates -> Income (non taxable); futures
--   realized PnL and funding -> Derivatives / Futures Profit or Loss by sign; risk-fund
--   compensation -> Margin Profit; confiscated -> Lost.
SELECT CASE
         WHEN kind = 'trade' THEN 'Trade'
         WHEN kind = 'interest' THEN 'Borrowing Fee'
         WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'Income (non taxable)'
         WHEN kind IN ('fee', 'liquidation_fee') THEN 'Other Fee'
         WHEN kind IN ('realized_pnl', 'funding_fee') AND received_amount IS NOT NULL THEN 'Derivatives / Futures Profit'
         WHEN kind IN ('realized_pnl', 'funding_fee') THEN 'Derivatives / Futures Loss'
         WHEN kind = 'compensate' THEN 'Margin Profit'
         WHEN kind = 'confiscated' THEN 'Lost'
         WHEN received_amount IS NOT NULL THEN 'Deposit'
         ELSE 'Withdrawal' END AS "Type",
       money_text(received_amount) AS "Buy Amount", received_coin AS "Buy Currency",
       money_text(sent_amount) AS "Sell Amount", sent_coin AS "Sell Currency",
       money_text(fee_amount) AS "Fee", fee_coin AS "Fee Currency",
       account_uid || ' ' || wallet AS "Exchange", wallet AS "Trade-Group",
       CASE WHEN demo THEN 'DEMO (paper trading) ' ELSE '' END
         || kind || ' ' || source || ':' || source_id || coalesce(' ' || symbol, '')
         || CASE WHEN own_account THEN ' own-account ' || coalesce(counterparty, '') ELSE '' END AS "Comment",
       to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS "Date"
FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account', (:'include_demo')::boolean)
ORDER BY ts, account_uid, source, source_id, kind;
