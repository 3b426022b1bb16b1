-- gains.csv: one row per matched part of a disposal, from a `tradeledger gains` run (docs/gains.md).
-- Parameters (psql: -v run_id=1): run_id   gains_runs.run_id
-- Columns: asset, quantity, date_acquired (empty for a pool share), date_disposed, proceeds, cost,
--   gain, holding_days, matching (same-day, 30-day, s104, fifo, lifo, hifo, average, no-cost),
--   rule (UK: the matching rule; US: short/long; DE: taxable/exempt; AU: discount/no-discount;
--   CA: acb), pool (account/wallet, * for one pool across all), disposal_refs and
--   acquisition_refs (ledger rows source|source_id|leg, ';'-joined; s104 = the pool)
SELECT m.asset, money_text(m.quantity) AS quantity, m.acquired_day::text AS date_acquired,
       m.disposed_day::text AS date_disposed, money_text(m.proceeds) AS proceeds, money_text(m.cost) AS cost,
       money_text(m.gain) AS gain, m.holding_days, m.basis AS matching, m.class AS rule, m.pool,
       array_to_string(m.disposal_refs, ';') AS disposal_refs, array_to_string(m.acquisition_refs, ';') AS acquisition_refs
FROM gains_matches m
WHERE m.run_id = (:'run_id')::bigint
ORDER BY m.seq;
