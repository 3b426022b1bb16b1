-- gains-data-quality.csv: what a `tradeledger gains` run could not take at face value: unpriced
-- rows (valued at 0), deposits without a known cost (market value on arrival), withdrawals
-- treated as own-wallet moves, loan principal, unrecognised kinds, disposals with no lots
-- (matching no-cost).
-- Parameters (psql: -v run_id=1): run_id   gains_runs.run_id
-- Columns: problem, ref (ledger row source|source_id|leg), detail
SELECT p.problem, p.ref, p.detail FROM gains_problems p WHERE p.run_id = (:'run_id')::bigint
UNION ALL
SELECT 'no_cost_basis', array_to_string(m.disposal_refs, ';'),
       money_text(m.quantity) || ' ' || m.asset || ' disposed of on ' || m.disposed_day || ' had no lots to match: cost 0'
FROM gains_matches m WHERE m.run_id = (:'run_id')::bigint AND m.basis = 'no-cost'
ORDER BY 1, 2;
