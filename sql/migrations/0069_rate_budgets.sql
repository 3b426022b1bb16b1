-- Rate budgets shared by every process that reaches the exchange from one address (issue 23).
-- The exchange limits its public endpoints (candles, symbols, coins) and its overall request rate
-- per IP, so every process on one host must spend one budget; each kept its own, and 4 workers
-- on one host got 471 x 429 per run. One row per budget holds a token bucket as a GCRA schedule
-- ("theoretical arrival time"): a process reserves its slot with one atomic statement and waits
-- until it. Nothing is held between statements, so a process that dies leaves no lock behind,
-- and a restarted database loses nothing that matters (a missing row starts a fresh bucket).

CREATE TABLE rate_budgets (
  -- '<address>|<origin>|<scope>': address is the host (or client.budgetAddress), scope
  -- 'ip@<origin>' for the overall per-IP limit or 'public@<origin>|<endpoint>'
  key          text             PRIMARY KEY,
  -- the next free slot, ms since the Unix epoch on the database's clock (one clock for all hosts)
  tat_ms       double precision NOT NULL DEFAULT 0,
  -- after a 429 (its Retry-After, else back-off) no process sends on this budget before this
  paused_until_ms double precision NOT NULL DEFAULT 0,
  updated_at   timestamptz      NOT NULL DEFAULT now()
);

-- Reserves one slot that every named budget allows (the latest of their next free slots and
-- pauses), spends it in all of them, and returns the ms to wait until it (0 = go now). Rows are
-- locked in key order, so concurrent reservations never deadlock. p_now_ms is for tests that
-- move a clock by hand; NULL = the database's clock.
CREATE FUNCTION rate_budget_reserve(p_keys text[], p_interval_ms double precision[], p_burst integer[], p_now_ms double precision DEFAULT NULL)
RETURNS double precision
LANGUAGE plpgsql AS $$
DECLARE
  now_ms double precision := coalesce(p_now_ms, extract(epoch FROM clock_timestamp())::double precision * 1000);
  slot double precision;
BEGIN
  INSERT INTO rate_budgets (key) SELECT k FROM unnest(p_keys) AS k ORDER BY k ON CONFLICT (key) DO NOTHING;
  PERFORM 1 FROM rate_budgets WHERE key = ANY (p_keys) ORDER BY key FOR UPDATE;
  SELECT greatest(now_ms, max(greatest(b.tat_ms - (x.burst - 1) * x.interval_ms, b.paused_until_ms)))
    INTO slot
    FROM rate_budgets b JOIN unnest(p_keys, p_interval_ms, p_burst) AS x (key, interval_ms, burst) USING (key);
  UPDATE rate_budgets b SET tat_ms = greatest(b.tat_ms, slot) + x.interval_ms, updated_at = now()
    FROM unnest(p_keys, p_interval_ms, p_burst) AS x (key, interval_ms, burst)
   WHERE b.key = x.key;
  RETURN slot - now_ms;
END
$$;

-- Pauses one budget for p_ms from now (never shortens a pause already set).
CREATE FUNCTION rate_budget_pause(p_key text, p_ms double precision, p_now_ms double precision DEFAULT NULL)
RETURNS void
LANGUAGE sql AS $$
  INSERT INTO rate_budgets AS b (key, paused_until_ms)
  VALUES (p_key, coalesce(p_now_ms, extract(epoch FROM clock_timestamp())::double precision * 1000) + p_ms)
  ON CONFLICT (key) DO UPDATE SET paused_until_ms = greatest(b.paused_until_ms, excluded.paused_until_ms), updated_at = now();
$$;
