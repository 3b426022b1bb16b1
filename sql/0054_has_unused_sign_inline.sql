-- has_unused_sign (sql/0017) as one expression, so PostgreSQL inlines it into the ledger view and
-- ledger_valued instead of calling a SQL function with a sub-select for every row (about 7 us a
-- call here: measured by the issue 11 valuation work, sql/0052). The same answer for every input:
-- the phrase holds no U+0001, so it matches the joined text exactly when it matches one element;
-- NULL elements are skipped by array_to_string as by the EXISTS over unnest; a NULL or empty array
-- gives false. STABLE, not IMMUTABLE as before: array_to_string is STABLE, and PostgreSQL inlines
-- a function only when its declared volatility is no lower than its body's. Nothing indexes on it.
-- test/db/hasUnusedSign.test.ts compares the two on edge cases and checks the view inlines it.
CREATE OR REPLACE FUNCTION has_unused_sign(problems text[]) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_string(problems, E'\x01') LIKE '%a sign the API never uses for this field%', false)
$$;
