-- Audited corrections (issue 22 item 6): an accountant re-labels a ledger row (a withdrawal that
-- was a gift or a payment, a deposit that was income or came from the client's own wallet, a lost
-- coin) or gives it a price with its source. Until now every such assumption was only logged.
--
-- A correction is keyed by the ledger row's natural identity (account_uid, wallet, source,
-- source_id, leg: the exchange's own ids, as the ledger view gives them), never by a synced row's
-- surrogate, so every re-sync (which upserts the history tables) leaves it in force. It records
-- who set it, when and why; it is never deleted: undoing it stamps who, when and why, and setting
-- a row again replaces the one in force (replaced_by), which an undo of the new one restores.
-- Corrections flow into ledger_valued (new columns correction_id, classification, other_side; a
-- corrected price replaces the valuation rule, price_source 'corrected'), and from there into
-- gains, income and the tax-tool files (docs/ledger.md#corrections).

CREATE TABLE ledger_corrections (
  id bigserial PRIMARY KEY,
  account_uid text NOT NULL,
  wallet text NOT NULL,
  source text NOT NULL,
  source_id text NOT NULL,
  leg text NOT NULL,
  classification text CHECK (classification IN (
    'gift_sent', 'gift_received', 'payment', 'income', 'income_staking', 'income_mining', 'income_airdrop',
    'income_interest', 'income_salary', 'income_reward', 'lost', 'stolen', 'own_wallet', 'not_taxable')),
  other_side text,
  price numeric CHECK (price >= 0),
  price_currency text CHECK (price_currency ~ '^[A-Z]{3}$'),
  price_source text,
  why text NOT NULL CHECK (btrim(why) <> ''),
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now(),
  replaces bigint REFERENCES ledger_corrections (id),
  -- deferred: the old correction names its replacement before that row is inserted, so the
  -- unique index below never sees two in force on one row
  replaced_by bigint REFERENCES ledger_corrections (id) DEFERRABLE INITIALLY DEFERRED,
  undone_by text,
  undone_at timestamptz,
  undo_why text,
  CHECK (classification IS NOT NULL OR price IS NOT NULL),
  CHECK ((price IS NULL) = (price_currency IS NULL) AND (price IS NULL) = (price_source IS NULL)),
  CHECK (price_source IS NULL OR btrim(price_source) <> ''),
  CHECK (classification IS DISTINCT FROM 'own_wallet' OR coalesce(btrim(other_side), '') <> ''),
  CHECK ((undone_at IS NULL) = (undone_by IS NULL) AND (undone_at IS NULL) = (undo_why IS NULL))
);
-- At most one correction in force per ledger row.
CREATE UNIQUE INDEX ledger_corrections_in_force_row ON ledger_corrections (account_uid, wallet, source, source_id, leg)
  WHERE undone_at IS NULL AND replaced_by IS NULL;

COMMENT ON TABLE ledger_corrections IS 'Audited corrections of ledger rows (tradeledger classify, the portal''s Corrections page): a classification and/or a price with its source, who set it, when and why. Never deleted: undone rows keep undone_by/at/why, replaced ones replaced_by. docs/ledger.md#corrections.';
COMMENT ON COLUMN ledger_corrections.account_uid IS 'the ledger row''s account_uid (an imported wallet''s name for imported_transactions); with wallet, source, source_id and leg the row''s natural identity, which survives every re-sync';
COMMENT ON COLUMN ledger_corrections.wallet IS 'the ledger row''s wallet';
COMMENT ON COLUMN ledger_corrections.source IS 'the ledger row''s source table (deposits, withdrawals, imported_transactions, ...)';
COMMENT ON COLUMN ledger_corrections.source_id IS 'the ledger row''s id in its source table (the exchange''s orderId, billId, ...; an imported line''s key)';
COMMENT ON COLUMN ledger_corrections.leg IS 'the ledger row''s leg (amount, fee, received, sent, ...)';
COMMENT ON COLUMN ledger_corrections.classification IS 'what the row was: gift_sent, payment, lost, stolen (out); gift_received, income, income_staking, income_mining, income_airdrop, income_interest, income_salary, income_reward (in); own_wallet, not_taxable (either); NULL for a price-only correction';
COMMENT ON COLUMN ledger_corrections.other_side IS 'own_wallet: the other side of the move (a wallet name, an address, or another ledger row source:id)';
COMMENT ON COLUMN ledger_corrections.price IS 'a corrected unit price in price_currency (replaces the valuation rule: price_source corrected)';
COMMENT ON COLUMN ledger_corrections.price_currency IS 'the fiat the price is in (ISO 4217); converted to a report''s fiat with the ECB rates like any fiat (docs/valuation.md)';
COMMENT ON COLUMN ledger_corrections.price_source IS 'where the price comes from, as the accountant states it (an invoice, an OTC desk''s confirmation, a price site''s close)';
COMMENT ON COLUMN ledger_corrections.why IS 'why the row was corrected (required)';
COMMENT ON COLUMN ledger_corrections.set_by IS 'the portal user who set it (portal_users.username at the time)';
COMMENT ON COLUMN ledger_corrections.replaces IS 'the correction of the same row that was in force when this one was set (in force again if this one is undone)';
COMMENT ON COLUMN ledger_corrections.replaced_by IS 'the correction that replaced this one; NULL while in force or undone';
COMMENT ON COLUMN ledger_corrections.undone_by IS 'who undid it; NULL while not undone';

-- The Koinly label a classification is written as. Every tax-tool file (reports/koinly.sql,
-- cointracking.sql, cointracker.sql, ctc.sql) already maps Koinly's labels of an imported line to
-- its own tags (issue 21), and gains reads them (src/gains/ledgerEvents.ts), so a classification
-- takes the same path. own_wallet and not_taxable have no Koinly tag: ''.
CREATE FUNCTION correction_label(p_classification text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_classification
    WHEN 'gift_sent' THEN 'gift' WHEN 'gift_received' THEN 'gift' WHEN 'payment' THEN 'payment'
    WHEN 'income' THEN 'income' WHEN 'income_staking' THEN 'staking' WHEN 'income_mining' THEN 'mining'
    WHEN 'income_airdrop' THEN 'airdrop' WHEN 'income_interest' THEN 'lending interest' WHEN 'income_salary' THEN 'salary'
    WHEN 'income_reward' THEN 'reward' WHEN 'lost' THEN 'lost' WHEN 'stolen' THEN 'stolen'
    ELSE '' END
$$;
COMMENT ON FUNCTION correction_label(text) IS 'The Koinly label a correction''s classification is written as in the tax-tool files (own_wallet, not_taxable: none).';

CREATE VIEW ledger_corrections_in_force AS
  SELECT c.id, c.account_uid, c.wallet, c.source, c.source_id, c.leg, c.classification, c.other_side,
         c.price, c.price_currency, c.price_source, c.why, c.set_by, c.set_at, c.replaces,
         correction_label(c.classification) AS label
  FROM ledger_corrections c
  WHERE c.undone_at IS NULL AND c.replaced_by IS NULL;
COMMENT ON VIEW ledger_corrections_in_force IS 'The corrections in force: one per ledger row at most (neither undone nor replaced), with the Koinly label of the classification.';

-- The valued ledger with the corrections applied. The rules are unchanged and live on as
-- ledger_valued_uncorrected (sql/0026-0061); a corrected price replaces the rule's value.
ALTER FUNCTION ledger_valued(text, timestamptz, timestamptz, boolean) RENAME TO ledger_valued_uncorrected;
COMMENT ON FUNCTION ledger_valued_uncorrected(text, timestamptz, timestamptz, boolean) IS 'ledger_valued without the corrections (sql/0067): every ledger row valued in one fiat by the rules of docs/valuation.md.';

CREATE FUNCTION ledger_valued(p_fiat text, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT 'infinity', p_include_demo boolean DEFAULT false)
RETURNS TABLE(account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text, source_id text, leg text,
              order_id text, symbol text, counterparty text, fiat text, unit_price numeric, value numeric, price_source text,
              price_time timestamptz, stablecoin_basis text, fx_day date, demo boolean,
              correction_id bigint, classification text, other_side text)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT v.account_uid, v.wallet, v.coin, v.ts, v.amount, v.kind, v.source, v.source_id, v.leg,
         v.order_id, v.symbol, v.counterparty, v.fiat,
         CASE WHEN p.corrected THEN c.price * p.per_unit ELSE v.unit_price END,
         CASE WHEN p.corrected THEN v.amount * c.price * p.per_unit ELSE v.value END,
         CASE WHEN p.corrected THEN 'corrected' ELSE v.price_source END,
         CASE WHEN p.corrected THEN v.ts ELSE v.price_time END,
         CASE WHEN p.corrected THEN NULL ELSE v.stablecoin_basis END,
         CASE WHEN p.corrected THEN CASE WHEN c.price_currency <> upper(p_fiat) THEN ledger_fx_rate_day(upper(p_fiat), c.price_currency, (v.ts AT TIME ZONE 'UTC')::date) END
              ELSE v.fx_day END,
         v.demo, c.id, c.classification, c.other_side
  FROM ledger_valued_uncorrected(p_fiat, p_from, p_to, p_include_demo) v
  LEFT JOIN ledger_corrections_in_force c
    ON c.account_uid = v.account_uid AND c.wallet = v.wallet AND c.source = v.source AND c.source_id = v.source_id AND c.leg = v.leg
  -- a demo row stays valued 0 (virtual coins); a price in another fiat goes through the ECB rates
  -- like any fiat (NULL when there is none: the row is then unpriced, and says so)
  CROSS JOIN LATERAL (SELECT c.price IS NOT NULL AND NOT v.demo AS corrected,
                             CASE WHEN c.price IS NULL THEN NULL WHEN c.price_currency = upper(p_fiat) THEN 1
                                  ELSE ledger_fx_per_unit(upper(p_fiat), c.price_currency, (v.ts AT TIME ZONE 'UTC')::date) END AS per_unit) p
$$;
COMMENT ON FUNCTION ledger_valued(text, timestamptz, timestamptz, boolean) IS 'Every ledger row valued in one fiat, with the rule (price_source) and candle time used, and the correction in force on it (correction_id, classification, other_side; a corrected price: price_source corrected); demo-trading rows left out unless p_include_demo, and then valued 0 (price_source demo). Rules: docs/valuation.md, docs/ledger.md#corrections.';
