-- cointracking.csv: the CoinTracking CSV import, built from tax_transactions (sql/schema/functions/tax_transactions.sql).
-- Date is UTC, written YYYY-MM-DD HH:MM:SS (choose that format and UTC in the import dialog).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v include_demo=false):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   include_demo  true to include demo-trading (paper) accounts' rows (valued 0, marked DEMO);
--              false (the default of `tradeledger report`) leaves them out (sql/schema/functions/tax_transactions.sql)
-- Columns: Type, Buy Amount, Buy Currency, Sell Amount, Sell Currency, Fee, Fee Currency,
--   Exchange (account and wallet), Trade-Group (wallet), Comment, Date
-- Every row names its account and wallet in Exchange, so CoinTracking keeps one balance per
-- wallet. Own-account movements are kept, as Deposit and Withdrawal on each wallet: CoinTracking
-- treats both as non-taxable transfers of currencies you own
-- (https://cointracking.freshdesk.com/en/support/solutions/articles/29000034379-expanded-transaction-types-legacy-),
-- so each wallet's balance matches the ledger and no gain or income arises.
-- Fees (CoinTracking, "Entering fees",
-- https://cointracking.freshdesk.com/en/support/solutions/articles/29000007202-entering-fees):
--   "The fee field is more an informational value for our system ... Relevant for calculations
--   are the entered values": the amounts carry the fee. A fee in the bought coin comes off Buy
--   ("Buy = 0.99 BTC, Sell = 500 USD, Fee = 0.01 BTC"); a fee in the sold or withdrawn coin is
--   added to Sell ("Withdrawal of 1.001 BTC ..., Fee = 0.001 BTC"). "Any fee that is paid in a
--   third currency ... is not deducted from the total balance ... you need to create an additional
--   transaction as OTHER FEE": such a fee is its own Other Fee row (Comment 'fee ...'), and the
--   trade's Fee column stays empty so the Fee page does not count it twice.
-- Types (sources in docs/ledger.md): trade -> Trade; deposit, withdrawal, transfers, margin
--   deal/exchange legs -> Deposit / Withdrawal; borrow -> Receive Loan; repay -> Repay Loan
--   (loans article 29000047245); interest -> Borrowing Fee; liquidation fee and other fees ->
--   Other Fee; fee rebates -> Income (non taxable); futures realized PnL and funding ->
--   Derivatives / Futures Profit or Loss by sign; risk-fund compensation -> Margin Profit;
--   confiscated -> Lost.
SELECT CASE
         WHEN part = 'fee' THEN 'Other Fee'
         -- An imported line's Koinly label, as CoinTracking's type of the same meaning ([T1]).
         WHEN kind = 'deposit' AND imported_label = 'staking' THEN 'Staking'
         WHEN kind = 'deposit' AND imported_label = 'airdrop' THEN 'Airdrop'
         WHEN kind = 'deposit' AND imported_label = 'mining' THEN 'Mining'
         WHEN kind = 'deposit' AND imported_label IN ('income', 'other income', 'salary') THEN 'Income'
         WHEN kind = 'deposit' AND imported_label IN ('reward', 'cashback') THEN 'Reward / Bonus'
         WHEN kind = 'deposit' AND imported_label IN ('lending interest', 'loan interest', 'interest') THEN 'Interest Income'
         WHEN kind = 'deposit' AND imported_label = 'gift' THEN 'Gift / Tip'
         WHEN kind = 'withdrawal' AND imported_label = 'lost' THEN 'Lost'
         WHEN kind = 'withdrawal' AND imported_label = 'stolen' THEN 'Stolen / Hacked / Fraud'
         WHEN kind = 'withdrawal' AND imported_label = 'gift' THEN 'Gift'
         WHEN kind = 'withdrawal' AND imported_label = 'donation' THEN 'Donation'
         WHEN kind = 'withdrawal' AND imported_label IN ('cost', 'payment') THEN 'Spend'
         WHEN kind = 'trade' THEN 'Trade'
         WHEN kind = 'borrow' THEN 'Receive Loan'
         WHEN kind = 'repay' THEN 'Repay Loan'
         WHEN kind = 'interest' THEN 'Borrowing Fee'
         WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'Income (non taxable)'
         WHEN kind IN ('fee', 'liquidation_fee') THEN 'Other Fee'
         WHEN kind IN ('realized_pnl', 'funding_fee') AND received_amount IS NOT NULL THEN 'Derivatives / Futures Profit'
         WHEN kind IN ('realized_pnl', 'funding_fee') THEN 'Derivatives / Futures Loss'
         WHEN kind = 'compensate' THEN 'Margin Profit'
         WHEN kind = 'confiscated' THEN 'Lost'
         WHEN received_amount IS NOT NULL THEN 'Deposit'
         ELSE 'Withdrawal' END AS "Type",
       money_text(CASE WHEN part = 'fee' THEN NULL
                       WHEN fee_coin = received_coin THEN received_amount - fee_amount
                       ELSE received_amount END) AS "Buy Amount",
       CASE WHEN part = 'fee' THEN NULL ELSE received_coin END AS "Buy Currency",
       money_text(CASE WHEN part = 'fee' THEN fee_amount
                       WHEN fee_coin = sent_coin AND fee_coin IS DISTINCT FROM received_coin THEN sent_amount + fee_amount
                       ELSE sent_amount END) AS "Sell Amount",
       CASE WHEN part = 'fee' THEN fee_coin ELSE sent_coin END AS "Sell Currency",
       money_text(CASE WHEN inside THEN fee_amount END) AS "Fee",
       CASE WHEN inside THEN fee_coin END AS "Fee Currency",
       account_uid || ' ' || wallet AS "Exchange", wallet AS "Trade-Group",
       CASE WHEN demo THEN 'DEMO (paper trading) ' ELSE '' END
         || CASE WHEN part = 'fee' THEN 'fee ' ELSE '' END
         || kind || ' ' || source || ':' || source_id || coalesce(' ' || symbol, '')
         || CASE WHEN own_account THEN ' own-account ' || coalesce(counterparty, '') ELSE '' END
         || coalesce(' corrected:' || correction || ' #' || correction_id, '') AS "Comment",
       to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS "Date"
FROM (
  SELECT t.*, p.part, (p.part = 'main' AND t.fee_coin IN (t.sent_coin, t.received_coin)) AS inside,
         CASE WHEN lc.id IS NOT NULL THEN lc.label ELSE lower(trim(coalesce(it.label, ''))) END AS imported_label,
         lc.id AS correction_id, lc.classification AS correction
  FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account', (:'include_demo')::boolean) t
  LEFT JOIN imported_transactions it ON t.source = 'imported_transactions' AND it.source_id = t.source_id
  -- An accountant's classification (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; tradeledger classify) speaks
  -- as the Koinly label it stands for (correction_label), instead of an imported line's own.
  LEFT JOIN ledger_corrections_in_force lc ON lc.classification IS NOT NULL AND t.kind IN ('deposit', 'withdrawal')
    AND lc.account_uid = t.account_uid AND lc.wallet = t.wallet AND lc.source = t.source AND lc.source_id = t.source_id
  -- A folded fee in a third coin (neither sent nor received) becomes a second row, Other Fee.
  CROSS JOIN LATERAL (VALUES ('main'), ('fee')) p(part)
  WHERE p.part = 'main' OR (t.fee_amount IS NOT NULL AND t.fee_coin IS DISTINCT FROM t.sent_coin AND t.fee_coin IS DISTINCT FROM t.received_coin)
) t
ORDER BY ts, account_uid, source, source_id, kind, part DESC;
