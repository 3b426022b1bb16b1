-- An imported line's identity is its content within its wallet, not the file it came in.
-- Until now a line was keyed by its file's SHA-256 and line number, so the same lines in a Q1
-- file and a Q1+Q2 file, or in the Q1 file re-saved with CRLF or a trailing blank line, were
-- stored twice (issue 23). line_key is a hash of the line's checked, normalised fields (time to
-- the millisecond, amounts without trailing zeros, currencies, label, description, TxHash);
-- `tradeledger import transactions` stores a line only when its wallet has no line with that
-- key, and says how many it skipped. file_sha256 and line stay: where the line was first seen
-- (and source_id, the ledger's id for it, is unchanged).
--
-- Lines that earlier versions stored twice stay as they are (a migration does not delete a
-- user's rows); the index is therefore not unique, and imports into one wallet take turns under
-- an advisory lock instead.

-- The normalised content of one line, hashed. IMMUTABLE by construction: every input is
-- written out in a fixed form (epoch milliseconds, trim_scale'd numerics) before hashing.
CREATE FUNCTION imported_line_key(
  p_ts timestamptz, p_sent_amount numeric, p_sent_currency text, p_received_amount numeric, p_received_currency text,
  p_fee_amount numeric, p_fee_currency text, p_net_worth_amount numeric, p_net_worth_currency text,
  p_label text, p_description text, p_tx_hash text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(json_build_array(
    trim_scale(extract(epoch FROM p_ts) * 1000)::text,
    trim_scale(p_sent_amount)::text, p_sent_currency, trim_scale(p_received_amount)::text, p_received_currency,
    trim_scale(p_fee_amount)::text, p_fee_currency, trim_scale(p_net_worth_amount)::text, p_net_worth_currency,
    p_label, p_description, p_tx_hash)::text, 'UTF8')), 'hex')
$$;
COMMENT ON FUNCTION imported_line_key IS 'The identity of an imported Koinly line within its wallet: a hash of its normalised fields (sql/migrations/0064).';

ALTER TABLE imported_transactions ADD COLUMN line_key text GENERATED ALWAYS AS (imported_line_key(
  ts, sent_amount, sent_currency, received_amount, received_currency, fee_amount, fee_currency,
  net_worth_amount, net_worth_currency, label, description, tx_hash)) STORED;
COMMENT ON COLUMN imported_transactions.line_key IS 'the line''s identity within its wallet: imported_line_key() of its fields; a line whose wallet already holds its key is not stored again';
CREATE INDEX imported_transactions_line_key ON imported_transactions (wallet, line_key);
-- To tell the user that a new line carries a TxHash the wallet already has.
CREATE INDEX imported_transactions_tx_hash ON imported_transactions (wallet, tx_hash) WHERE tx_hash IS NOT NULL;
