-- Issue 24 item 5: `tradeledger import transactions` at scale. A COPY of imported lines fills
-- every index of imported_transactions, and two of them cost more than they gave
-- (BENCHMARKS.md, session 13: a server-side COPY of 200,000 imported lines took 4.0-5.9 s with
-- the five indexes, 2.4-2.5 s with only the primary key and source_id):
--
--   * (wallet, line_key): a line's key is a sha256, so every line was inserted at a random place
--     of the index (a descent, a search of a cold leaf, page splits all over it). Its one reader
--     is the importer's question "does the wallet already hold this line?", which it now asks
--     with the line's time as well: the key is a hash of the line's fields, its time among them
--     (sql/schema/functions/imported_line_key.sql), so two lines with the same key have the same
--     time. Keyed by (wallet, ts, line_key) the index is filled in the file's own order (a Koinly
--     export is sorted by date), and it answers everything (wallet, ts) answered, so it replaces
--     that index too.
--   * (wallet, tx_hash): its one reader was the note on new lines whose TxHash the wallet already
--     had, one probe per line. The importer now answers that with one pass over the wallet's
--     lines grouped by TxHash (src/imports/importTransactions.ts, KNOWN_TX_HASHES_SQL), which
--     also ends the probes' quadratic time when one TxHash stands on thousands of lines.
--
-- What an import skips and what it notes do not change (test/imports/fileChecks.test.ts holds
-- both statements to the ones they replace).

DROP INDEX imported_transactions_line_key;
DROP INDEX imported_transactions_wallet;
DROP INDEX imported_transactions_tx_hash;
CREATE INDEX imported_transactions_wallet ON imported_transactions (wallet, ts, line_key);
