-- gains.csv: one row per matched part of a disposal, from a `tradeledger gains` run (docs/gains.md).
-- Parameters (psql: -v run_id=1): run_id   gains_runs.run_id
-- Columns: asset, quantity (exact), date_acquired (empty for a pool share), date_disposed,
--   proceeds (net of disposal costs), cost, gain, holding_days (empty for a pool share and for an
--   acquisition after the disposal, the UK 30-day rule), matching (same-day, 30-day, s104, fifo,
--   lifo, hifo, average, specific, no-cost), rule (UK: the matching rule; US: short/long; DE:
--   taxable/exempt; AU: discount/no-discount; CA: acb), pool (account/wallet, * for one pool across
--   all), disposal_refs and acquisition_refs (ledger rows source|source_id|leg, ';'-joined; s104 =
--   the pool), disposal_costs (the fees already off proceeds: gross proceeds = proceeds +
--   disposal_costs), denied_loss (Canada: superficial loss denied, already in gain).
-- Money columns are rounded to 2 decimals (half away from zero) for reading; the exact figures
-- are in gains_matches and summary.json.
SELECT m.asset, money_text(m.quantity) AS quantity, m.acquired_day::text AS date_acquired,
       m.disposed_day::text AS date_disposed, round(m.proceeds, 2)::text AS proceeds, round(m.cost, 2)::text AS cost,
       round(m.gain, 2)::text AS gain, m.holding_days, m.basis AS matching, m.class AS rule, m.pool,
       array_to_string(m.disposal_refs, ';') AS disposal_refs, array_to_string(m.acquisition_refs, ';') AS acquisition_refs,
       round(m.disposal_costs, 2)::text AS disposal_costs, round(m.denied_loss, 2)::text AS denied_loss
FROM gains_matches m
WHERE m.run_id = (:'run_id')::bigint
ORDER BY m.seq;
