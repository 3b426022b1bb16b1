-- koinly.csv: the Koinly universal CSV, built from tax_transactions (sql/schema/functions/tax_transactions.sql): one row
-- per transaction, fee folded in where it is one charge. Dates are UTC, as Koinly requires
-- (https://support.koinly.io/en/articles/9489976-how-to-create-a-custom-csv-file-with-your-data).
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account='' -v fiat=USD -v include_demo=false):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid or an imported wallet name, or '' for every account
--   fiat       the Net Worth currency (ISO 4217)
--   include_demo  true to include demo-trading (paper) accounts' rows (valued 0, marked DEMO);
--              false (the default of `tradeledger report`) leaves them out (sql/schema/functions/tax_transactions.sql)
-- Columns: Date (YYYY-MM-DD HH:mm UTC), Sent Amount, Sent Currency, Received Amount,
--   Received Currency, Fee Amount, Fee Currency, Net Worth Amount, Net Worth Currency, Label,
--   Description, TxHash
-- Net Worth: the transaction's value in fiat (ledger_valued, sql/schema/functions/ledger_valued.sql; docs/valuation.md):
--   for a trade or withdrawal the largest value of its non-fee legs, otherwise its own legs'
--   value; empty when any of those legs is unpriced (Koinly then prices it itself). Rounded to 2
--   decimals.
-- One file covers every exported account and wallet as one Koinly wallet. Own-account movements
-- (own_account: main <-> sub-accounts, spot <-> margin <-> futures, E19 transfers, margin
-- transfer_in/out, futures trans_*) are left out: inside one Koinly wallet an untagged deposit is
-- an acquisition and an untagged withdrawal a disposal ("What are tags",
-- https://support.koinly.io/en/articles/9490023-what-are-tags), and both legs are in the file, so
-- they net to zero. Movements with one leg outside stay untagged: that is Koinly's deposit and
-- withdrawal, which it turns into a non-taxable transfer when the other wallet is imported
-- (https://support.koinly.io/en/articles/9490024-how-koinly-handles-transfers-between-your-own-wallets).
-- Margin borrow and repay (loan principal) are left out, and so is an imported line labelled as a
-- loan: Koinly reads a loan receipt as "an acquisition, equivalent to purchasing crypto at market
-- price" and a repayment as "equivalent to a disposal", tagged or not ("Crypto loans, repayments
-- and collateral", https://support.koinly.io/en/articles/9490026-crypto-loans-repayments-and-collateral),
-- while the ledger's gains (docs/gains.md) and `import transactions` take principal as neither.
-- Left out, Koinly's gains equal the ledger's; its balance differs by the outstanding principal
-- (manifest coverage.leftOut; data-quality.csv lists each, kind tool_left_out).
-- Tags (each value's source page is listed in docs/ledger.md): interest, liquidation fee, margin fee rows -> margin fee; futures fee rows ->
--   futures fee; funding -> funding fee; realized PnL and risk-fund compensation -> realized gain;
--   spot fee rows and confiscated -> cost; fee rebates -> fee refund; trades, deposits,
--   withdrawals, exchange_in/out and margin deal_in/out -> no tag.
SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') AS "Date",
       money_text(sent_amount) AS "Sent Amount", sent_coin AS "Sent Currency",
       money_text(received_amount) AS "Received Amount", received_coin AS "Received Currency",
       money_text(fee_amount) AS "Fee Amount", fee_coin AS "Fee Currency",
       money_text(round(worth, 2)) AS "Net Worth Amount", CASE WHEN worth IS NOT NULL THEN fiat END AS "Net Worth Currency",
       -- An imported line keeps its own Koinly label (issue 21): it came from a Koinly file.
       -- A payment (a correction) stays untagged: Koinly's untagged withdrawal is a disposal at market value ([K1]).
       CASE WHEN correction = 'payment' THEN ''
            WHEN imported_label <> '' AND kind IN ('deposit', 'withdrawal') THEN imported_label
            WHEN kind IN ('interest', 'liquidation_fee') THEN 'margin fee'
            WHEN kind = 'fee' AND received_amount IS NOT NULL THEN 'fee refund'
            WHEN kind = 'fee' AND wallet LIKE '%futures' THEN 'futures fee'
            WHEN kind = 'fee' AND wallet LIKE '%margin' THEN 'margin fee'
            WHEN kind = 'fee' THEN 'cost'
            WHEN kind = 'funding_fee' THEN 'funding fee'
            WHEN kind IN ('realized_pnl', 'compensate') THEN 'realized gain'
            -- Koinly's expense tag: "remain a disposal but their worth (market value) will be summed"
            -- as an expense ([K1]), as the ledger's gains treat a confiscation (docs/gains.md); 'lost'
            -- (before 2026-11-26) disposed of it for nothing, which a re-import then did too.
            WHEN kind = 'confiscated' THEN 'cost'
            ELSE '' END AS "Label",
       CASE WHEN demo THEN 'DEMO (paper trading, no value) ' ELSE '' END
         || kind || ' ' || wallet || ' ' || account_uid || ' ' || source || ':' || source_id
         || coalesce(' ' || symbol, '')
         || coalesce(' corrected:' || correction || ' #' || correction_id, '') AS "Description",
       CASE WHEN source IN ('deposits', 'withdrawals', 'imported_transactions') THEN ref END AS "TxHash"
FROM (
  SELECT t.*, nw.fiat, nw.worth, CASE WHEN lc.id IS NOT NULL THEN lc.label ELSE lower(trim(coalesce(it.label, ''))) END AS imported_label,
         lc.id AS correction_id, lc.classification AS correction
  FROM tax_transactions((:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', :'account', (:'include_demo')::boolean) t
  LEFT JOIN imported_transactions it ON t.source = 'imported_transactions' AND it.source_id = t.source_id
  -- An accountant's classification (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; tradeledger classify) speaks
  -- as the Koinly label it stands for (correction_label), instead of an imported line's own.
  LEFT JOIN ledger_corrections_in_force lc ON lc.classification IS NOT NULL AND t.kind IN ('deposit', 'withdrawal')
    AND lc.account_uid = t.account_uid AND lc.wallet = t.wallet AND lc.source = t.source AND lc.source_id = t.source_id
  LEFT JOIN (
    -- per wallet too: margin record and futures bill ids repeat across margin and product types
    SELECT v.account_uid, v.wallet, v.source, v.source_id,
           tax_transaction_kind(v.source, v.kind) AS tx_kind,
           min(v.fiat) AS fiat,
           CASE WHEN bool_and(v.value IS NOT NULL) THEN max(abs(v.value)) END AS worth
    FROM ledger_valued(:'fiat', (:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz', (:'include_demo')::boolean) v
    WHERE (:'account' = '' OR v.account_uid = :'account')
    GROUP BY 1, 2, 3, 4, 5
  ) nw ON nw.account_uid = t.account_uid AND nw.wallet = t.wallet AND nw.source = t.source AND nw.source_id = t.source_id AND nw.tx_kind = t.kind
  WHERE NOT t.own_account AND t.kind NOT IN ('borrow', 'repay')
) t
WHERE NOT (kind IN ('deposit', 'withdrawal') AND imported_label IN ('loan', 'margin loan', 'loan repayment', 'margin repayment'))
ORDER BY ts, account_uid, source, source_id, kind;
