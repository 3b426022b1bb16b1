-- Issue 24: tax_transactions, which every tax-tool file and the tax reports read, called
-- is_own_account_movement for every ledger row of the period, and that function's body holds a
-- subquery (EXISTS over accounts: is the counterparty an exported account?), so PostgreSQL could
-- not inline it and ran it through its own executor row by row: 2.9 of the 7.6-9.6 CPU-s of
-- `SELECT count(*) FROM tax_transactions('-infinity', 'infinity', '')` at 1M synced records
-- (BENCHMARKS.md, issue 24, session 12).
--
-- The rules stay in one place, now a function of the row alone: is_own_account_movement with a
-- sixth argument, p_counterparty_is_account (the counterparty is a uid in accounts), and no
-- subquery, so the planner inlines it. tax_transactions answers that argument with one LEFT JOIN
-- of accounts on the counterparty (accounts.uid is the primary key: a row joins at most one
-- account, so no ledger row is repeated). The five-argument function keeps its meaning for
-- anyone who calls it: it asks accounts itself and hands over to the six-argument one. Where the
-- old body asked accounts only when p_account = '', the new one asks always and uses the answer
-- only then: the same result. test/reports/ownAccountMovements.test.ts and
-- test/db/ownAccountMovementInline.test.ts hold the two equal on every ledger row.

-- True when a ledger row is a movement between exported accounts or wallets (rules:
-- sql/migrations/0020_tax_transactions_own_account.sql); p_counterparty_is_account: the row's
-- counterparty is an account in `accounts`.
CREATE FUNCTION is_own_account_movement(p_account_uid text, p_source text, p_kind text, p_counterparty text, p_account text, p_counterparty_is_account boolean)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN p_source IN ('margin_records', 'futures_bills') THEN p_kind IN ('transfer_in', 'transfer_out')
    WHEN p_source = 'transfers' OR (p_source IN ('deposits', 'withdrawals') AND p_kind IN ('deposit', 'withdrawal')) THEN
      coalesce(p_counterparty, '') <> ''
      AND (p_counterparty = p_account_uid
           OR (p_account = '' AND p_counterparty_is_account)
           OR p_counterparty = p_account)
    ELSE false
  END
$$;

CREATE OR REPLACE FUNCTION is_own_account_movement(p_account_uid text, p_source text, p_kind text, p_counterparty text, p_account text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT is_own_account_movement(p_account_uid, p_source, p_kind, p_counterparty, p_account,
                                 EXISTS (SELECT 1 FROM accounts a WHERE a.uid = p_counterparty))
$$;

CREATE OR REPLACE FUNCTION tax_transactions(p_from timestamp with time zone, p_to timestamp with time zone, p_account text, p_include_demo boolean DEFAULT false)
 RETURNS TABLE(ts timestamp with time zone, account_uid text, wallet text, kind text, source text, source_id text, sent_amount numeric, sent_coin text, received_amount numeric, received_coin text, fee_amount numeric, fee_coin text, ref text, symbol text, counterparty text, own_account boolean, demo boolean)
 LANGUAGE sql
 STABLE
AS $function$
  WITH l AS (
    SELECT ledger.*, is_own_account_movement(ledger.account_uid, ledger.source, ledger.kind, ledger.counterparty, p_account, oa.uid IS NOT NULL) AS own
    FROM ledger
    LEFT JOIN accounts oa ON oa.uid = ledger.counterparty
    WHERE ledger.ts >= p_from AND ledger.ts < p_to AND (p_account = '' OR ledger.account_uid = p_account)
      AND (p_include_demo OR NOT ledger.demo)
  ), grouped AS (
    SELECT l.account_uid, l.source, l.source_id, min(l.ts) AS ts, min(l.wallet) AS wallet,
           -sum(l.amount) FILTER (WHERE l.kind <> 'fee' AND l.amount < 0) AS sent_amount,
           min(l.coin) FILTER (WHERE l.kind <> 'fee' AND l.amount < 0) AS sent_coin,
           sum(l.amount) FILTER (WHERE l.kind <> 'fee' AND l.amount >= 0) AS received_amount,
           min(l.coin) FILTER (WHERE l.kind <> 'fee' AND l.amount >= 0) AS received_coin,
           count(*) FILTER (WHERE l.kind = 'fee') AS fee_n,
           count(*) FILTER (WHERE l.kind = 'fee' AND l.amount < 0) AS fee_charges,
           -sum(l.amount) FILTER (WHERE l.kind = 'fee') AS fee_amount,
           min(l.coin) FILTER (WHERE l.kind = 'fee') AS fee_coin,
           min(l.order_id) AS ref, min(l.symbol) AS symbol,
           min(l.counterparty) FILTER (WHERE l.kind <> 'fee') AS counterparty,
           bool_or(l.own) AS own, bool_or(l.demo) AS demo
    FROM l WHERE l.source IN ('spot_fills', 'withdrawals', 'imported_transactions')
    GROUP BY l.account_uid, l.source, l.source_id
  ), folded AS (
    -- An imported line with only a fee keeps it as its own fee row (there is no side to fold it into).
    SELECT g.*, (g.fee_n = 1 AND g.fee_charges = 1 AND NOT g.own
                 AND (g.source <> 'imported_transactions' OR g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL)) AS fold
    FROM grouped g
  )
  SELECT g.ts, g.account_uid, g.wallet,
         CASE WHEN g.source = 'spot_fills' THEN 'trade'
              WHEN g.source = 'withdrawals' THEN 'withdrawal'
              WHEN g.sent_amount IS NOT NULL AND g.received_amount IS NOT NULL THEN 'trade'
              WHEN g.received_amount IS NOT NULL THEN 'deposit'
              ELSE 'withdrawal' END,
         g.source, g.source_id, g.sent_amount, g.sent_coin, g.received_amount, g.received_coin,
         CASE WHEN g.fold THEN g.fee_amount END, CASE WHEN g.fold THEN g.fee_coin END,
         g.ref, g.symbol, g.counterparty, g.own, g.demo
  FROM folded g
  WHERE g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL OR g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, 'fee', l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, NULL, false, l.demo
  FROM l JOIN folded g ON g.account_uid = l.account_uid AND g.source = l.source AND g.source_id = l.source_id
  WHERE l.kind = 'fee' AND NOT g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, l.kind, l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, l.counterparty, l.own, l.demo
  FROM l WHERE l.source NOT IN ('spot_fills', 'withdrawals', 'imported_transactions')
$function$;
