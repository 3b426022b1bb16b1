-- Issue 24: `tradeledger import transactions` computes each line's key once, in the importer.
-- Until now imported_transactions.line_key was a generated column, so every imported line's
-- key (imported_line_key(): json_build_array and sha256) was computed twice by PostgreSQL, once
-- for the staging table's duplicate checks and once more on insert: a quarter of the server's
-- time per imported line. The importer now computes the same text (src/imports/lineKey.ts;
-- test/imports/lineKey.test.ts compares the two) and stores it with the line.
--
-- DROP EXPRESSION keeps every stored key as it is, so lines imported before this migration are
-- still recognised as already in their wallet. For every other writer the key stays what the
-- generated column gave: a row inserted without one gets imported_line_key() of its fields, and
-- an update of a row computes it again.

ALTER TABLE imported_transactions ALTER COLUMN line_key DROP EXPRESSION;
ALTER TABLE imported_transactions ALTER COLUMN line_key SET NOT NULL;

CREATE FUNCTION imported_transactions_line_key() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.line_key := imported_line_key(NEW.ts, NEW.sent_amount, NEW.sent_currency, NEW.received_amount, NEW.received_currency,
    NEW.fee_amount, NEW.fee_currency, NEW.net_worth_amount, NEW.net_worth_currency, NEW.label, NEW.description, NEW.tx_hash);
  RETURN NEW;
END
$$;
COMMENT ON FUNCTION imported_transactions_line_key IS 'Trigger: sets imported_transactions.line_key to imported_line_key() of the row, for a row inserted without a key and on every update (sql/migrations/0075).';

CREATE TRIGGER imported_transactions_line_key BEFORE INSERT ON imported_transactions
  FOR EACH ROW WHEN (NEW.line_key IS NULL) EXECUTE FUNCTION imported_transactions_line_key();
CREATE TRIGGER imported_transactions_line_key_update BEFORE UPDATE ON imported_transactions
  FOR EACH ROW EXECUTE FUNCTION imported_transactions_line_key();

COMMENT ON COLUMN imported_transactions.line_key IS 'the line''s identity within its wallet: imported_line_key() of its fields (computed by the importer, else by a trigger); a line whose wallet already holds its key is not stored again';
