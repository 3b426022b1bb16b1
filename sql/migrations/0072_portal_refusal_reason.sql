-- Requests the portal refuses for their parameters (a NUL byte, an unknown or repeated field: issue
-- 23 item 4) are answered 400 and kept in portal_access_denied beside the refused accounts, with
-- why: `reason` says which parameter and what was wrong with it (never its value). Rows written
-- before this migration, all refused accounts, have none.
ALTER TABLE portal_access_denied ADD COLUMN reason text;
COMMENT ON COLUMN portal_access_denied.reason IS 'Why a 400 was refused: the parameter and the problem (unknown, repeated, NUL byte), never the value; NULL for a refused account (403/404).';
