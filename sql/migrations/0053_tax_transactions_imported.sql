-- tax_transactions: an imported line (tradeledger import transactions) becomes one transaction,
-- as a spot fill is, instead of one row per leg. A line with a sent and a received side is one
-- `trade` (its fee folded in when it is one charge), so each tax tool reads it as the one trade
-- it was: Koinly a trade with the line's Net Worth, CTC a buy or sell with both currencies, not an
-- untagged withdrawal plus an untagged deposit. A line with one side is a `deposit` or
-- `withdrawal`; a line with only a fee stays a `fee` row. Everything else is as in sql/0020.
CREATE OR REPLACE FUNCTION tax_transactions(p_from timestamptz, p_to timestamptz, p_account text)
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
  FROM l WHERE l.source NOT IN ('spot_fills', 'withdrawals', 'imported_transactions')
$$;

-- The tax_transactions kind of the transaction a ledger row belongs to, so a report can join
-- ledger_valued rows (one per leg) to tax_transactions rows (one per transaction): fee legs stay
-- fees, the legs of a spot fill or of an imported line with both sides are its trade, a
-- withdrawal's legs its withdrawal; anything else keeps its own kind.
CREATE FUNCTION tax_transaction_kind(p_source text, p_kind text)
RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_kind = 'fee' THEN 'fee'
              WHEN p_source = 'spot_fills' THEN 'trade'
              WHEN p_source = 'withdrawals' THEN 'withdrawal'
              WHEN p_source = 'imported_transactions' AND p_kind IN ('trade_buy', 'trade_sell') THEN 'trade'
              ELSE p_kind END
$$;
