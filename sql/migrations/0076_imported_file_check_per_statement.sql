-- Issue 24 item 5: `tradeledger import transactions` COPYs a file's lines into
-- imported_transactions, and the foreign key to imported_files checked each line on its own:
-- one RI query (executor start, an index probe, a row lock, executor end) per row, about a
-- fifth of the server's time per imported line, for lines that all name the one file whose
-- row the importer wrote a moment before (perf of the COPY, BENCHMARKS.md, session 11).
--
-- The same guarantee, checked once per statement: every file a statement's new or changed
-- lines name is an imported_files row, and no file row that still has lines is deleted or has
-- its sha256 changed. What the foreign key did, and how each is kept:
--
--   * An insert (INSERT or COPY) or an update of imported_transactions: after the statement,
--     its rows' distinct file_sha256 (a transition table) must all be in imported_files, else
--     the statement fails with foreign_key_violation (SQLSTATE 23503, as before), naming the
--     file. The file rows are locked as the foreign key locked them, so that a concurrent
--     delete waits for this transaction: by a no-op UPDATE, not FOR KEY SHARE, because a row
--     only locked by a committed transaction can still be deleted by a REPEATABLE READ
--     transaction whose snapshot is older (which cannot see the new lines either); an updated
--     row cannot (could not serialize access due to concurrent update). The foreign key closed
--     that gap with a cross-check snapshot that PL/pgSQL does not have.
--   * A DELETE from imported_files or an UPDATE of its sha256: after the statement, no removed
--     sha256 may still be named by a line (NO ACTION: a key deleted and written again in the
--     same statement is fine), else foreign_key_violation naming the file and its lines.
--
-- fx_rates keeps its foreign key to imported_files: an FX file has a few thousand rows.

ALTER TABLE imported_transactions DROP CONSTRAINT imported_transactions_file_sha256_fkey;

CREATE FUNCTION imported_transactions_file_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  files text[];
  found_files int;
  missing text;
BEGIN
  SELECT array_agg(DISTINCT n.file_sha256) INTO files FROM new_lines n;
  IF files IS NULL THEN
    RETURN NULL;
  END IF;
  -- Locks each file row until this transaction ends (see the migration's header for why an update).
  UPDATE imported_files f SET sha256 = f.sha256 WHERE f.sha256 = ANY (files);
  GET DIAGNOSTICS found_files = ROW_COUNT;
  IF found_files < cardinality(files) THEN
    SELECT s INTO missing FROM unnest(files) s WHERE NOT EXISTS (SELECT 1 FROM imported_files f WHERE f.sha256 = s) ORDER BY s LIMIT 1;
    RAISE EXCEPTION 'imported_transactions: a line names file % which imported_files does not hold', missing
      USING ERRCODE = 'foreign_key_violation', TABLE = 'imported_transactions', COLUMN = 'file_sha256',
        CONSTRAINT = 'imported_transactions_file_sha256_fkey',
        HINT = 'Every imported line belongs to an imported file: insert its imported_files row first.';
  END IF;
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION imported_transactions_file_check IS 'Trigger (per statement): every file_sha256 of the statement''s new or changed imported_transactions rows is in imported_files, whose rows it locks; else foreign_key_violation (sql/migrations/0076).';

CREATE TRIGGER imported_transactions_file_insert AFTER INSERT ON imported_transactions
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION imported_transactions_file_check();
CREATE TRIGGER imported_transactions_file_update AFTER UPDATE ON imported_transactions
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION imported_transactions_file_check();

CREATE FUNCTION imported_files_lines_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone text;
  lines bigint;
BEGIN
  SELECT o.sha256 INTO gone FROM old_files o
  WHERE NOT EXISTS (SELECT 1 FROM imported_files f WHERE f.sha256 = o.sha256)
    AND EXISTS (SELECT 1 FROM imported_transactions t WHERE t.file_sha256 = o.sha256)
  ORDER BY o.sha256 LIMIT 1;
  IF gone IS NOT NULL THEN
    SELECT count(*) INTO lines FROM imported_transactions t WHERE t.file_sha256 = gone;
    RAISE EXCEPTION 'imported_files: file % still has % line(s) in imported_transactions', gone, lines
      USING ERRCODE = 'foreign_key_violation', TABLE = 'imported_transactions', COLUMN = 'file_sha256',
        CONSTRAINT = 'imported_transactions_file_sha256_fkey',
        HINT = 'Delete the file''s lines from imported_transactions first.';
  END IF;
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION imported_files_lines_check IS 'Trigger (per statement): no imported_files row deleted, or whose sha256 changed, is still named by an imported_transactions line; else foreign_key_violation (sql/migrations/0076).';

CREATE TRIGGER imported_files_lines_delete AFTER DELETE ON imported_files
  REFERENCING OLD TABLE AS old_files FOR EACH STATEMENT EXECUTE FUNCTION imported_files_lines_check();
CREATE TRIGGER imported_files_lines_update AFTER UPDATE ON imported_files
  REFERENCING OLD TABLE AS old_files FOR EACH STATEMENT EXECUTE FUNCTION imported_files_lines_check();

-- TRUNCATE fires no DELETE trigger. A plain TRUNCATE of imported_files is refused by fx_rates'
-- foreign key anyway; TRUNCATE ... CASCADE reached the lines through this table's foreign key and
-- no longer does, so one that leaves lines behind is refused after the truncation (the tables
-- truncated together in one statement still go).
CREATE FUNCTION imported_files_truncate_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM imported_transactions) THEN
    RAISE EXCEPTION 'imported_files: truncated while imported_transactions still has lines'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'imported_transactions', COLUMN = 'file_sha256',
        CONSTRAINT = 'imported_transactions_file_sha256_fkey',
        HINT = 'TRUNCATE imported_transactions, imported_files together, or delete the lines first.';
  END IF;
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION imported_files_truncate_check IS 'Trigger (after TRUNCATE of imported_files): refuses it while imported_transactions still has lines; foreign_key_violation (sql/migrations/0076).';

CREATE TRIGGER imported_files_lines_truncate AFTER TRUNCATE ON imported_files
  FOR EACH STATEMENT EXECUTE FUNCTION imported_files_truncate_check();

COMMENT ON COLUMN imported_transactions.file_sha256 IS 'the file the line came from (imported_files.sha256; checked per statement by triggers instead of a foreign key, sql/migrations/0076)';
COMMENT ON COLUMN imported_files.sha256 IS 'SHA-256 (hex) of the file''s bytes: its identity; a file whose lines are in imported_transactions can be neither deleted nor given another sha256 (triggers, sql/migrations/0076)';
