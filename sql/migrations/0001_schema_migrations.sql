-- Bookkeeping for the migrator itself. The migrator creates `schema_migrations` before it runs
-- any file (it needs the table to know what ran); this file documents it for analysts in psql.
--
-- Rules: every file in sql/ is applied once, in number order, each in its own transaction.
-- A shipped file is never edited or deleted: `tradeledger db migrate` refuses to run when an
-- applied file's SHA-256 no longer matches. Changes go into a new, higher-numbered file.

COMMENT ON TABLE schema_migrations IS 'One row per applied sql/NNNN_name.sql file; written by tradeledger db migrate.';
COMMENT ON COLUMN schema_migrations.version IS 'The NNNN number of the file.';
COMMENT ON COLUMN schema_migrations.name IS 'The file name between the number and .sql.';
COMMENT ON COLUMN schema_migrations.sha256 IS 'SHA-256 (hex) of the file as applied; a later mismatch stops the migrator.';
COMMENT ON COLUMN schema_migrations.applied_at IS 'When the file was applied.';
