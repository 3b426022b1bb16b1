-- Issue 24 item 5: `tradeledger gains` reads the valued ledger in time slices, the next one
-- computed while the last is matched (src/gains/runGains.ts). A slice of the ledger reads each
-- source table by its time index; imported_transactions had none that leads with ts since
-- sql/migrations/0079 (its (wallet, ts, line_key) needs the wallet first), so every slice read
-- the whole table twice: its ledger branch and the join that gives a line's label and
-- description. Eight slices of 400,100 rows then cost 3.9 s of PostgreSQL against 2.5 s for one
-- query; with this index 2.65 s (BENCHMARKS.md, session 14). Lines are imported in the file's
-- order, which is by date, so the index is filled at its end, not at random places.

CREATE INDEX imported_transactions_ts ON imported_transactions (ts);
