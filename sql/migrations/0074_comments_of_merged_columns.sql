-- Comments for the columns the issue-22/23/24 migrations (0067-0069, 0071) added beside 0070's
-- comments for every analyst column (test/db/columnComments.test.ts fails on one without), and
-- ledger_valued_columns made to match ledger_valued again: 0067 gave the function three columns.

COMMENT ON COLUMN account_health_counts.key IS 'account_health_key() when the counts were computed: they stand while it is current';
COMMENT ON COLUMN account_health_counts.computed_at IS 'when the sync computed them';
COMMENT ON COLUMN account_health_counts.counts IS 'per account uid: flagged, unclassified, unpriced, unexplained, opening, unsettled (the accounts page''s warning counts)';

COMMENT ON COLUMN ledger_corrections.id IS 'the correction''s number (tradeledger classify undo ID)';
COMMENT ON COLUMN ledger_corrections.set_at IS 'when it was set';
COMMENT ON COLUMN ledger_corrections.undone_at IS 'when it was undone; NULL while in force or replaced';
COMMENT ON COLUMN ledger_corrections.undo_why IS 'why it was undone, as its undoer said';

COMMENT ON VIEW ledger_corrections_in_force IS 'The corrections in force: one per ledger row at most, neither undone nor replaced.';
COMMENT ON COLUMN ledger_corrections_in_force.id IS 'as ledger_corrections.id';
COMMENT ON COLUMN ledger_corrections_in_force.account_uid IS 'the corrected row''s account (ledger.account_uid)';
COMMENT ON COLUMN ledger_corrections_in_force.wallet IS 'the corrected row''s wallet (ledger.wallet)';
COMMENT ON COLUMN ledger_corrections_in_force.source IS 'the corrected row''s source table (ledger.source)';
COMMENT ON COLUMN ledger_corrections_in_force.source_id IS 'the corrected row''s natural id in its source (ledger.source_id)';
COMMENT ON COLUMN ledger_corrections_in_force.leg IS 'the corrected row''s leg (ledger.leg)';
COMMENT ON COLUMN ledger_corrections_in_force.classification IS 'the classification set (tradeledger classify kinds), or NULL for a price only';
COMMENT ON COLUMN ledger_corrections_in_force.other_side IS 'own_wallet: the other side of the move';
COMMENT ON COLUMN ledger_corrections_in_force.price IS 'a corrected unit price, or NULL';
COMMENT ON COLUMN ledger_corrections_in_force.price_currency IS 'the currency of price';
COMMENT ON COLUMN ledger_corrections_in_force.price_source IS 'where the price comes from, as the corrector gave it';
COMMENT ON COLUMN ledger_corrections_in_force.why IS 'why it was set';
COMMENT ON COLUMN ledger_corrections_in_force.set_by IS 'the portal user who set it';
COMMENT ON COLUMN ledger_corrections_in_force.set_at IS 'when it was set';
COMMENT ON COLUMN ledger_corrections_in_force.replaces IS 'the correction it replaced on the same row, if any';
COMMENT ON COLUMN ledger_corrections_in_force.label IS 'the tool label the classification maps to (Koinly''s label spelling; correction_label())';

COMMENT ON COLUMN rate_budgets.key IS 'the budget: address (client.budgetAddress) and endpoint group';
COMMENT ON COLUMN rate_budgets.tat_ms IS 'theoretical arrival time (ms since the epoch): the next slot free under the budget''s rate';
COMMENT ON COLUMN rate_budgets.paused_until_ms IS 'no request before this (ms since the epoch): set by a 429 (Retry-After when given)';
COMMENT ON COLUMN rate_budgets.updated_at IS 'when a process last reserved or paused';

COMMENT ON COLUMN sync_fences.account_uid IS 'the account';
COMMENT ON COLUMN sync_fences.generation IS 'the newest fencing token: only the run holding it (and its lock) may write';
COMMENT ON COLUMN sync_fences.run_id IS 'the sync run that holds the newest token';
COMMENT ON COLUMN sync_fences.holder_pid IS 'the PostgreSQL backend pid of the connection holding the account''s advisory lock';
COMMENT ON COLUMN sync_fences.taken_at IS 'when the token was taken';
COMMENT ON COLUMN sync_runs.fence_tokens IS 'per account uid: the fencing token (sync_fences.generation) this run took';

ALTER TYPE ledger_valued_columns ADD ATTRIBUTE correction_id bigint, ADD ATTRIBUTE classification text, ADD ATTRIBUTE other_side text;
COMMENT ON COLUMN ledger_valued_columns.correction_id IS 'the correction in force on the row (ledger_corrections.id), or NULL';
COMMENT ON COLUMN ledger_valued_columns.classification IS 'its classification, or NULL';
COMMENT ON COLUMN ledger_valued_columns.other_side IS 'own_wallet: the other side of the move, or NULL';

-- ledger_valued_uncorrected (0067: the valuation before corrections) has the first 20 columns.
CREATE TYPE ledger_valued_uncorrected_columns AS (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text, source_id text,
  leg text, order_id text, symbol text, counterparty text, fiat text, unit_price numeric, value numeric,
  price_source text, price_time timestamptz, stablecoin_basis text, fx_day date, demo boolean
);
COMMENT ON TYPE ledger_valued_uncorrected_columns IS 'The output columns of ledger_valued_uncorrected(...): ledger_valued''s without the corrections in force. Not a table: nothing is stored in it.';
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT a.attname, d.description FROM pg_attribute a
           JOIN pg_description d ON d.objoid = 'ledger_valued_columns'::regclass AND d.objsubid = a.attnum
           WHERE a.attrelid = 'ledger_valued_columns'::regclass AND a.attnum > 0 AND a.attname NOT IN ('correction_id', 'classification', 'other_side') LOOP
    EXECUTE format('COMMENT ON COLUMN ledger_valued_uncorrected_columns.%I IS %L', c.attname, c.description);
  END LOOP;
END
$$;

-- ledger_valued_uncorrected (0067, made before 0070 rewrote ledger_valued's) still cited short
-- migration paths in its body and comment: the same rewrite, from the catalog text.
DO $$
DECLARE
  def text;
  fixed text;
BEGIN
  FOR def IN SELECT pg_get_functiondef(p.oid) FROM pg_proc p
             WHERE p.pronamespace = 'public'::regnamespace AND p.proname = 'ledger_valued_uncorrected' LOOP
    fixed := replace(replace(def, 'branch (sql/0050)', 'branch (sql/schema/views/ledger.sql)'),
                     'demo column, sql/0061)', 'demo column, sql/schema/views/ledger.sql)');
    IF fixed <> def THEN
      EXECUTE fixed;
    END IF;
  END LOOP;
END
$$;
COMMENT ON FUNCTION ledger_valued_uncorrected(text, timestamptz, timestamptz, boolean) IS 'ledger_valued without the corrections (sql/migrations/0067_ledger_corrections.sql): every ledger row valued in one fiat by the rules of docs/valuation.md.';
