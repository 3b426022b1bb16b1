-- corrections.csv: every correction in force (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; `tradeledger classify`,
-- the portal's Corrections page) on the account's rows, whatever their date, with who set it, when
-- and why, and the ledger row it is on as the ledger has it now. Undone and replaced corrections
-- are kept in the table (`tradeledger classify list --history`), not listed here.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz: in_period says whether the row lies inside
--   tz         IANA zone the dates are in
--   account    an account uid or an imported wallet name, or '' for every account
-- Columns: id, account_uid, wallet, row (source:source_id, as `classify set --row` takes it), leg,
--   time_utc (the row's, empty when a re-sync no longer has it: row_found false), coin, amount,
--   kind, classification, other_side, price, price_currency, price_source, why, set_by, set_at_utc,
--   replaces (the correction it replaced, in force again if this one is undone), in_period, row_found
SELECT c.id, c.account_uid, c.wallet, c.source || ':' || c.source_id AS row, c.leg,
       to_char(l.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       l.coin, money_text(l.amount) AS amount, l.kind, c.classification, c.other_side,
       money_text(c.price) AS price, c.price_currency, c.price_source, c.why, c.set_by,
       to_char(c.set_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS set_at_utc, c.replaces,
       (l.ts >= (:'from')::timestamp AT TIME ZONE :'tz' AND l.ts < (:'to')::timestamp AT TIME ZONE :'tz')::text AS in_period,
       (l.ts IS NOT NULL)::text AS row_found
FROM ledger_corrections_in_force c
LEFT JOIN LATERAL (
  SELECT l.ts, l.coin, l.amount, l.kind FROM ledger l
  WHERE l.account_uid = c.account_uid AND l.source = c.source AND l.source_id = c.source_id AND l.wallet = c.wallet AND l.leg = c.leg
  LIMIT 1
) l ON true
WHERE (:'account' = '' OR c.account_uid = :'account')
ORDER BY l.ts NULLS LAST, c.id;
