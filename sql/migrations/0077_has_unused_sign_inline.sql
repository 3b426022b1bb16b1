-- Issue 24 item 2: has_unused_sign(problems) is called for every row of five of the ledger
-- view's branches (spot fills, their fees, deposits, withdrawals, transfers). As written in
-- sql/migrations/0017_ledger_unused_sign.sql its body is `SELECT EXISTS (SELECT 1 FROM
-- unnest(problems) ...)`, and PostgreSQL does not inline a SQL function whose body holds a
-- subquery: each call ran the function through its own executor (start, run, end), several
-- microseconds a row for rows that have no problem at all. At 1M synced records that was about a
-- third of every full read of the ledger (`SELECT count(*) FROM ledger`: 3.4 -> 2.25 CPU-s, medians
-- of six alternating runs; BENCHMARKS.md, issue 24 item 2, session 12), and the ledger is read by
-- the sync's end-of-run counts three times, by the prices pass, by every report, by gains and by
-- the portal.
--
-- The same answer as one expression, which the planner inlines into the view: the problems
-- joined with a newline contain the words. The words hold no newline, so they can only be found
-- inside one problem, never across two (a problem that itself holds a newline is still one
-- problem); NULL elements are left out by array_to_string as EXISTS left them out (NULL LIKE is
-- not true); a NULL or empty array gives false as before. test/db/hasUnusedSign.test.ts holds the
-- two bodies equal on those cases and checks that the view's plan holds the expression, not a
-- call.
--
-- STABLE instead of IMMUTABLE: array_to_string is STABLE (it calls the element type's output
-- function), and PostgreSQL inlines a function only when its body is no more volatile than the
-- function says it is. Nothing indexes or constrains on has_unused_sign, which alone needs
-- IMMUTABLE; the views that call it are unchanged.
CREATE OR REPLACE FUNCTION has_unused_sign(problems text[]) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_to_string(problems, E'\n') LIKE '%a sign the API never uses for this field%', false)
$$;
