-- income.csv: income and expenses that are not disposals, from a `tradeledger gains` run: futures
-- realized PnL, funding, margin interest, fee rebates, risk-fund compensation, confiscations,
-- liquidation fees, fees outside a trade, and imported deposits labelled as income.
-- Parameters (psql: -v run_id=1): run_id   gains_runs.run_id
-- Columns: date (local), time_utc, category, asset, quantity (signed), value (fiat, > 0 income,
--   < 0 expense, empty when unpriced), fiat, pool, ref (ledger row source|source_id|leg)
SELECT i.day::text AS date, to_char(i.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       i.category, i.asset, money_text(i.quantity) AS quantity, money_text(i.value) AS value, r.fiat, i.pool, i.ref
FROM gains_income i JOIN gains_runs r USING (run_id)
WHERE i.run_id = (:'run_id')::bigint
ORDER BY i.seq;
