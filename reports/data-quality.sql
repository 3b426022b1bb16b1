-- data-quality.csv: flagged records, unclassified ledger rows and known history gaps (the
-- data_quality view, sql/0013) that touch the period, and ledger rows no valuation rule could
-- price in the report's fiat (kind 'unpriced', from ledger_valued, sql/0026). Rows without a
-- time are always listed.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid or an imported wallet name, or '' for every account
--   fiat       the currency values are in (USD, EUR, ...), for the 'unpriced' rows
-- Columns: kind (record|unclassified|history_gap|unpriced), source, account_uid, record_id, time_utc,
--   to_utc (gaps: end of the gap), problem
SELECT kind, source, account_uid, record_id,
       to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time_utc,
       to_char(ts_to AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS to_utc,
       problem
FROM (
  SELECT kind, source, account_uid, record_id, ts, ts_to, problem FROM data_quality
  UNION ALL
  SELECT 'unpriced', source, account_uid, source_id || '/' || leg, ts, NULL,
         'no ' || fiat || ' value for ' || coalesce(coin, '(no coin)') || ': no imported value, fiat or stablecoin quote, fill price or candle'
           || CASE WHEN fiat <> 'USD' THEN ' (or no ECB rate for the day: tradeledger import fx)' ELSE '' END
  FROM ledger_valued(:'fiat', (:'from')::timestamp AT TIME ZONE :'tz', (:'to')::timestamp AT TIME ZONE :'tz') WHERE price_source = 'unpriced'
) dq
WHERE (ts IS NULL OR ts < (:'to')::timestamp AT TIME ZONE :'tz')
  AND (coalesce(ts_to, ts) IS NULL OR coalesce(ts_to, ts) >= (:'from')::timestamp AT TIME ZONE :'tz')
  AND (:'account' = '' OR account_uid = :'account')
ORDER BY kind, ts NULLS FIRST, source, account_uid, record_id;
