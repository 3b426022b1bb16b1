-- ctc.csv: CryptoTaxCalculator's advanced (custom) CSV, built from tax_transactions (sql/0014,
-- sql/0020). Columns and their meaning from
-- https://help.cryptotaxcalculator.io/en/articles/5777675-advanced-manual-custom-csv-import:
--   Timestamp (UTC) (YYYY-MM-DD HH:mm:ss, the import's default), Type, Base Currency, Base Amount,
--   Quote Currency, Quote Amount, Fee Currency, Fee Amount, From, To, Blockchain, ID, Description
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
-- CTC asks for one CSV per exchange or wallet source; this file is one source covering every
-- exported account and wallet, so own-account movements (own_account) are left out: both legs
-- are inside the source and net to zero. A spot fill is a buy (Base = the coin received) or a sell
-- (Base = the coin given), the quote leg in Quote; a single-leg margin deal or exchange is a buy
-- or sell with Quote left blank, which CTC prices at market. Types other than buy and sell are
-- spelled from CTC's category names; docs/ledger.md says which spelling the stored CTC pages show
-- and which they do not. Quote and fee amounts exclude fees, as the page asks.
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS "Timestamp (UTC)",
       CASE
         WHEN kind = 'trade' AND received_coin = spot_symbol_quote(symbol) THEN 'sell'
         WHEN kind = 'trade' THEN 'buy'
         WHEN kind IN ('trade_buy', 'exchange_in') THEN 'buy'
         WHEN kind IN ('trade_sell', 'exchange_out') THEN 'sell'
         WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin-fee'
         WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'rebate'
         WHEN kind = 'fee' AND wallet <> 'spot' THEN 'margin-fee'
         WHEN kind = 'fee' THEN 'fee'
         WHEN kind IN ('realized_pnl', 'funding_fee', 'compensate') AND received_amount IS NOT NULL THEN 'realized-profit'
         WHEN kind IN ('realized_pnl', 'funding_fee', 'compensate') THEN 'realized-loss'
         WHEN kind = 'borrow' THEN 'borrow'
         WHEN kind = 'repay' THEN 'loan-repayment'
         WHEN kind = 'confiscated' THEN 'lost'
         WHEN received_amount IS NOT NULL THEN 'receive'
         ELSE 'send' END AS "Type",
       CASE WHEN kind = 'trade' AND received_coin = spot_symbol_quote(symbol) THEN sent_coin
            ELSE coalesce(received_coin, sent_coin) END AS "Base Currency",
       money_text(CASE WHEN kind = 'trade' AND received_coin = spot_symbol_quote(symbol) THEN sent_amount
            ELSE coalesce(received_amount, sent_amount) END) AS "Base Amount",
       CASE WHEN kind <> 'trade' THEN NULL
            WHEN received_coin = spot_symbol_quote(symbol) THEN received_coin ELSE sent_coin END AS "Quote Currency",
       money_text(CASE WHEN kind <> 'trade' THEN NULL
            WHEN received_coin = spot_symbol_quote(symbol) THEN received_amount ELSE sent_amount END) AS "Quote Amount",
       fee_coin AS "Fee Currency", money_text(fee_amount) AS "Fee Amount",
       CASE WHEN received_amount IS NOT NULL AND kind IN ('deposit', 'transfer_in') THEN counterparty END AS "From",
       CASE WHEN sent_amount IS NOT NULL AND kind IN ('withdrawal', 'transfer_out') THEN counterparty END AS "To",
       NULL::text AS "Blockchain",
       -- margin record and futures bill ids repeat across margin types and product types
       source || ':' || source_id || CASE WHEN source IN ('margin_records', 'futures_bills') THEN '@' || wallet ELSE '' END
         || CASE WHEN kind = 'fee' THEN ':fee:' || coalesce(sent_coin, received_coin) ELSE '' END AS "ID",
       kind || ' ' || wallet || ' ' || account_uid || coalesce(' ' || symbol, '') AS "Description"
FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account')
WHERE NOT own_account
ORDER BY ts, account_uid, source, source_id, kind;
