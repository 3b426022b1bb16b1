-- Issue 24 item 5: `tradeledger import transactions` at scale. Of the five indexes a COPY of
-- imported_transactions fills, (wallet, line_key) cost the most: a line's key is a sha256, so
-- every line is inserted at a random place of that index (a descent, a search of a random leaf,
-- page splits all over it). A server-side COPY of 200,000 imported lines took 3.7-3.9 s with it
-- and 2.4-2.5 s without it (BENCHMARKS.md, session 13).
--
-- Its one reader is the importer's question "does the wallet already hold this line?", which it
-- can ask with the line's time as well: the key is a hash of the line's fields, its time among
-- them (sql/schema/functions/imported_line_key.sql), so two lines with the same key have the same
-- time. Keyed by (wallet, ts, line_key) the index is filled in the file's own order (a Koinly
-- export is sorted by date), and it also answers everything (wallet, ts) answered, so it replaces
-- that index too: one index where there were two.
--
-- Which lines are skipped does not change: the importer asks for (wallet, ts, line_key), where it
-- asked for (wallet, line_key), and the key determines the time.

DROP INDEX imported_transactions_line_key;
DROP INDEX imported_transactions_wallet;
CREATE INDEX imported_transactions_wallet ON imported_transactions (wallet, ts, line_key);
