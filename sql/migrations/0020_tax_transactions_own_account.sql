-- tax_transactions, second version: every row says whether it is an own-account movement, so
-- the tax-tool reports can keep money that only moved between the exported accounts and wallets
-- out of the tools' taxable events (issue 10; the rules per tool are in docs/ledger.md).
--
-- New columns:
--   counterparty  the other side of a movement: the other account of an E19 transfer, the
--                 address or UID of a deposit or withdrawal (from the ledger)
--   own_account   true when both legs of the movement stay inside the exported accounts:
--                   * margin_records transfer_in/transfer_out and futures_bills trans_*: a move
--                     between the spot wallet and a margin or futures wallet of one account;
--                   * an E19 transfer whose other account is this account or another exported
--                     account (p_account '' = every account in `accounts`);
--                   * an internal deposit or withdrawal whose counterparty UID is an exported
--                     account.
--                 false for everything else, including deposits from a chain, withdrawals to an
--                 address and internal transfers to another user's UID (one leg outside).
-- A withdrawal's fee is never folded into an own-account withdrawal: it is its own 'fee' row,
-- so a report that leaves the movement out still charges the fee.
--
-- Example: SELECT * FROM tax_transactions('2025-01-01', '2026-01-01', '') WHERE own_account;

DROP FUNCTION tax_transactions(timestamptz, timestamptz, text);

-- True when a ledger row is a movement between exported accounts or wallets (rules above).
CREATE FUNCTION is_own_account_movement(p_account_uid text, p_source text, p_kind text, p_counterparty text, p_account text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN p_source IN ('margin_records', 'futures_bills') THEN p_kind IN ('transfer_in', 'transfer_out')
    WHEN p_source = 'transfers' OR (p_source IN ('deposits', 'withdrawals') AND p_kind IN ('deposit', 'withdrawal')) THEN
      coalesce(p_counterparty, '') <> ''
      AND (p_counterparty = p_account_uid
           OR (p_account = '' AND EXISTS (SELECT 1 FROM accounts a WHERE a.uid = p_counterparty))
           OR p_counterparty = p_account)
    ELSE false
  END
$$;

CREATE FUNCTION tax_transactions(p_from timestamptz, p_to timestamptz, p_account text)
RETURNS TABLE (
  ts timestamptz, account_uid text, wallet text, kind text, source text, source_id text,
  sent_amount numeric, sent_coin text, received_amount numeric, received_coin text,
  fee_amount numeric, fee_coin text, ref text, symbol text, counterparty text, own_account boolean
)
LANGUAGE sql STABLE AS $$
  WITH l AS (
    SELECT ledger.*, is_own_account_movement(ledger.account_uid, ledger.source, ledger.kind, ledger.counterparty, p_account) AS own
    FROM ledger
    WHERE ledger.ts >= p_from AND ledger.ts < p_to AND (p_account = '' OR ledger.account_uid = p_account)
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
           bool_or(l.own) AS own
    FROM l WHERE l.source IN ('spot_fills', 'withdrawals')
    GROUP BY l.account_uid, l.source, l.source_id
  ), folded AS (
    SELECT g.*, (g.fee_n = 1 AND g.fee_charges = 1 AND NOT g.own) AS fold FROM grouped g
  )
  SELECT g.ts, g.account_uid, g.wallet, CASE g.source WHEN 'spot_fills' THEN 'trade' ELSE 'withdrawal' END,
         g.source, g.source_id, g.sent_amount, g.sent_coin, g.received_amount, g.received_coin,
         CASE WHEN g.fold THEN g.fee_amount END, CASE WHEN g.fold THEN g.fee_coin END,
         g.ref, g.symbol, g.counterparty, g.own
  FROM folded g
  WHERE g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL OR g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, 'fee', l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, NULL, false
  FROM l JOIN folded g ON g.account_uid = l.account_uid AND g.source = l.source AND g.source_id = l.source_id
  WHERE l.kind = 'fee' AND NOT g.fold
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, l.kind, l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol, l.counterparty, l.own
  FROM l WHERE l.source NOT IN ('spot_fills', 'withdrawals')
$$;

-- Own-account movements whose legs do not net to zero over the whole history, per coin: a leg
-- the exchange did not serve (a futures trans_* bill with no E19 spot leg, a margin transfer_in
-- with no matching transfer, an internal deposit from a sub-account whose withdrawal is
-- missing). The tax-tool files that leave own-account movements out then differ from the
-- ledger by exactly this amount; data-quality.csv lists it.
-- Columns: coin, net (the sum of the legs), legs (how many), first_ts, last_ts.
CREATE VIEW own_movement_imbalance AS
SELECT coalesce(sent_coin, received_coin) AS coin,
       sum(coalesce(received_amount, 0) - coalesce(sent_amount, 0)) AS net,
       count(*) AS legs, min(ts) AS first_ts, max(ts) AS last_ts
FROM tax_transactions('-infinity', 'infinity', '')
WHERE own_account
GROUP BY 1
HAVING sum(coalesce(received_amount, 0) - coalesce(sent_amount, 0)) <> 0;

COMMENT ON VIEW own_movement_imbalance IS 'Per coin: own-account movement legs (E19, margin transfer_in/out, futures trans_*, internal deposits/withdrawals between exported accounts) that do not net to zero.';
