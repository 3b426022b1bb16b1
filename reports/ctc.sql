-- ctc.csv: CryptoTaxCalculator's advanced (custom) CSV, built from tax_transactions
-- (sql/schema/functions/tax_transactions.sql). Columns and their meaning from
-- https://help.cryptotaxcalculator.io/en/articles/5777675-advanced-manual-custom-csv-import:
--   Timestamp (UTC) (YYYY-MM-DD HH:mm:ss, the import's default), Type, Base Currency, Base Amount,
--   Quote Currency, Quote Amount, Fee Currency, Fee Amount, From, To, Blockchain, ID, Description,
--   Reference Price Per Unit, Reference Price Currency (the template's optional fiat price of one
--   unit of the Base Currency; blank lets CTC use its market price; see docs/ledger.md [X5]).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v fiat=USD -v include_demo=false):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid, or '' for every account
--   fiat       the Reference Price Currency (ISO 4217)
--   include_demo  true to include demo-trading (paper) accounts' rows (valued 0, marked DEMO);
--              false (the default of `tradeledger report`) leaves them out (sql/schema/functions/tax_transactions.sql)
-- CTC asks for one CSV per exchange or wallet source; this file is one source covering every
-- exported account and wallet, so own-account movements (own_account) are left out: both legs
-- are inside the source and net to zero. A spot fill is a buy (Base = the coin received) or a sell
-- (Base = the coin given), the quote leg in Quote; a single-leg margin deal or exchange is a buy
-- or sell with Quote left blank, which CTC prices at market. Every Type is one of CTC's documented
-- types (docs/ledger.md, "CryptoTaxCalculator", with the source of each). Quote and fee amounts
-- exclude fees, as the page asks.
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS "Timestamp (UTC)",
       CASE
         -- An imported line's Koinly label, as CTC's type of the same meaning ([X5]).
         WHEN kind = 'deposit' AND imported_label IN ('staking', 'airdrop', 'mining', 'cashback') THEN imported_label
         WHEN kind = 'deposit' AND imported_label IN ('income', 'other income', 'salary', 'reward') THEN 'income'
         WHEN kind = 'deposit' AND imported_label IN ('lending interest', 'loan interest', 'interest') THEN 'interest'
         WHEN kind = 'deposit' AND imported_label = 'gift' THEN 'incoming-gift'
         WHEN kind = 'withdrawal' AND imported_label IN ('lost', 'stolen') THEN imported_label
         WHEN kind = 'withdrawal' AND imported_label IN ('gift', 'donation') THEN 'outgoing-gift'
         WHEN kind = 'withdrawal' AND imported_label IN ('cost', 'payment') THEN 'expense'
         WHEN kind = 'trade' AND received_coin = spot_symbol_quote(symbol) THEN 'sell'
         WHEN kind = 'trade' THEN 'buy'
         WHEN kind IN ('trade_buy', 'exchange_in') THEN 'buy'
         WHEN kind IN ('trade_sell', 'exchange_out') THEN 'sell'
         WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin-fee'
         WHEN kind = 'fee' AND received_amount IS NOT NULL AND wallet <> 'spot' THEN 'realized-profit'
         WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'income'
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
       CASE WHEN demo THEN 'DEMO (paper trading, no value) ' ELSE '' END
         || kind || ' ' || wallet || ' ' || account_uid || coalesce(' ' || symbol, '')
         || coalesce(' corrected:' || correction || ' #' || correction_id, '') AS "Description",
       money_text(round(base_price, 10)) AS "Reference Price Per Unit",
       CASE WHEN base_price IS NOT NULL THEN fiat END AS "Reference Price Currency"
FROM (
  SELECT t.*, rp.fiat, rp.base_price, CASE WHEN lc.id IS NOT NULL THEN lc.label ELSE lower(trim(coalesce(it.label, ''))) END AS imported_label,
         lc.id AS correction_id, lc.classification AS correction
  FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account', (:'include_demo')::boolean) t
  LEFT JOIN imported_transactions it ON t.source = 'imported_transactions' AND it.source_id = t.source_id
  -- An accountant's classification (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; tradeledger classify) speaks
  -- as the Koinly label it stands for (correction_label), instead of an imported line's own.
  LEFT JOIN ledger_corrections_in_force lc ON lc.classification IS NOT NULL AND t.kind IN ('deposit', 'withdrawal')
    AND lc.account_uid = t.account_uid AND lc.wallet = t.wallet AND lc.source = t.source AND lc.source_id = t.source_id
  LEFT JOIN (
    -- The fiat price of each coin of a transaction (ledger_valued, sql/schema/functions/ledger_valued.sql), one per coin:
    -- the legs of one coin in one transaction share their price; empty when any is unpriced.
    -- per wallet too: margin record and futures bill ids repeat across margin and product types
    SELECT v.account_uid, v.wallet, v.source, v.source_id, v.coin,
           tax_transaction_kind(v.source, v.kind) AS tx_kind,
           min(v.fiat) AS fiat,
           CASE WHEN bool_and(v.unit_price IS NOT NULL) THEN min(v.unit_price) END AS base_price
    FROM ledger_valued(:'fiat', (:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', (:'include_demo')::boolean) v
    WHERE (:'account' = '' OR v.account_uid = :'account')
    GROUP BY 1, 2, 3, 4, 5, 6
  ) rp ON rp.account_uid = t.account_uid AND rp.wallet = t.wallet AND rp.source = t.source AND rp.source_id = t.source_id AND rp.tx_kind = t.kind
      AND rp.coin = CASE WHEN t.kind = 'trade' AND t.received_coin = spot_symbol_quote(t.symbol) THEN t.sent_coin
                         ELSE coalesce(t.received_coin, t.sent_coin) END
  WHERE NOT t.own_account
) t
ORDER BY ts, account_uid, source, source_id, kind;
