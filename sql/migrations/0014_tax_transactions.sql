-- Helpers for the report queries in reports/.

-- The quote coin of a spot symbol (BTCUSDT -> USDT, ETHBTC_SPBL -> BTC): the longest quote_coins
-- entry that ends the symbol; NULL when none does. The ledger view uses the same rule.
CREATE FUNCTION spot_symbol_quote(symbol text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT q.coin FROM quote_coins q
  WHERE right(split_part(symbol, '_', 1), length(q.coin)) = q.coin
    AND length(split_part(symbol, '_', 1)) > length(q.coin)
  ORDER BY length(q.coin) DESC LIMIT 1
$$;

-- The ledger grouped into transactions, the shape tax tools import: what was sent, what was
-- received, and the fee, for rows whose ts falls in [p_from, p_to) (p_account '' = all accounts).
--   * a spot fill is one transaction (kind 'trade'): its sell leg is sent, its buy leg received;
--   * a withdrawal is one transaction: its amount is sent, with its fee;
--   * the fee is folded into its trade or withdrawal only when there is exactly one fee row and it
--     is a charge; otherwise (several fee coins, a rebate) each fee row is its own transaction
--     (kind 'fee'), so no fee is dropped or counted twice;
--   * every other ledger row is one transaction: amount < 0 sent, amount > 0 received.
-- So for every coin: sum(received) - sum(sent) - sum(fee) = the ledger's sum over the same rows.
-- Amounts are positive numbers.
--
-- Example: SELECT * FROM tax_transactions('2025-01-01', '2026-01-01', '');
CREATE FUNCTION tax_transactions(p_from timestamptz, p_to timestamptz, p_account text)
RETURNS TABLE (
  ts timestamptz, account_uid text, wallet text, kind text, source text, source_id text,
  sent_amount numeric, sent_coin text, received_amount numeric, received_coin text,
  fee_amount numeric, fee_coin text, ref text, symbol text
)
LANGUAGE sql STABLE AS $$
  WITH l AS (
    SELECT * FROM ledger
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
           min(l.order_id) AS ref, min(l.symbol) AS symbol
    FROM l WHERE l.source IN ('spot_fills', 'withdrawals')
    GROUP BY l.account_uid, l.source, l.source_id
  )
  SELECT g.ts, g.account_uid, g.wallet, CASE g.source WHEN 'spot_fills' THEN 'trade' ELSE 'withdrawal' END,
         g.source, g.source_id, g.sent_amount, g.sent_coin, g.received_amount, g.received_coin,
         CASE WHEN g.fee_n = 1 AND g.fee_charges = 1 THEN g.fee_amount END,
         CASE WHEN g.fee_n = 1 AND g.fee_charges = 1 THEN g.fee_coin END,
         g.ref, g.symbol
  FROM grouped g
  WHERE g.sent_amount IS NOT NULL OR g.received_amount IS NOT NULL OR (g.fee_n = 1 AND g.fee_charges = 1)
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, 'fee', l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol
  FROM l JOIN grouped g ON g.account_uid = l.account_uid AND g.source = l.source AND g.source_id = l.source_id
  WHERE l.kind = 'fee' AND NOT (g.fee_n = 1 AND g.fee_charges = 1)
  UNION ALL
  SELECT l.ts, l.account_uid, l.wallet, l.kind, l.source, l.source_id,
         CASE WHEN l.amount < 0 THEN -l.amount END, CASE WHEN l.amount < 0 THEN l.coin END,
         CASE WHEN l.amount >= 0 THEN l.amount END, CASE WHEN l.amount >= 0 THEN l.coin END,
         NULL, NULL, l.order_id, l.symbol
  FROM l WHERE l.source NOT IN ('spot_fills', 'withdrawals')
$$;
