-- opening-balances.csv: the implied opening balances (reconciliation status opening_balance,
-- sql/schema/views/reconciliation.sql) as a Koinly universal CSV template: one deposit-like line per account, wallet and
-- coin, dated one minute before the first record read of that coin, so it comes before every
-- later movement. The exchange no longer serves the history that bought these coins, so their
-- cost is unknown: the accountant fills Net Worth Amount and Net Worth Currency with what the
-- holding cost (e.g. 41250.00 and USD) and brings the file back with
--   tradeledger import transactions opening-balances.csv --wallet opening-balances
-- The TxHash (opening-balance:<uid>:<wallet>:<coin>) ties each line to its account and wallet:
-- reconciliation counts it there (the coin then matches), and gains put the lot in that
-- account's pool with the cost given (docs/ledger.md). A line left without a cost is valued at
-- the market on its date, and gains flag it.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   account    an account uid, or '' for every account (from, to and tz are accepted and unused)
-- Columns: the Koinly universal CSV's, as koinly.csv writes them: Date (YYYY-MM-DD HH:mm UTC),
--   Sent Amount, Sent Currency, Received Amount, Received Currency, Fee Amount, Fee Currency,
--   Net Worth Amount, Net Worth Currency, Label, Description, TxHash
SELECT to_char(opening_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') AS "Date",
       NULL::text AS "Sent Amount", NULL::text AS "Sent Currency",
       money_text(opening_balance) AS "Received Amount", coin AS "Received Currency",
       NULL::text AS "Fee Amount", NULL::text AS "Fee Currency",
       NULL::text AS "Net Worth Amount", NULL::text AS "Net Worth Currency",
       NULL::text AS "Label",
       format('Opening balance of account %s, %s wallet: held before the first record read; fill Net Worth Amount and Net Worth Currency with its cost', account_uid, wallet) AS "Description",
       format('opening-balance:%s:%s:%s', account_uid, wallet, coin) AS "TxHash"
FROM reconciliation
WHERE status = 'opening_balance' AND (:'account' = '' OR account_uid = :'account')
ORDER BY account_uid, wallet, coin;
