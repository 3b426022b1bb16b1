-- data-quality.csv: flagged records, unclassified ledger rows and known history gaps (the
-- data_quality view, sql/schema/views/data_quality.sql) that touch the period, and ledger rows no valuation rule could
-- price in the report's fiat (kind 'unpriced', from ledger_valued, sql/schema/functions/ledger_valued.sql). Rows without a
-- time are always listed.
-- Parameters (psql: -v from=2025-01-01 -v to=2026-01-01 -v tz=UTC -v account=''):
--   from, to   local dates or timestamps in zone tz; from inclusive, to exclusive
--   tz         IANA zone the dates are in (UTC, Asia/Tokyo, ...)
--   account    an account uid or an imported wallet name, or '' for every account
--   fiat       the currency values are in (USD, EUR, ...), for the 'unpriced' rows
-- Also (issue 10): own_movement_unmatched, per coin, when own-account movements do not net to
-- zero over the whole history (view own_movement_imbalance, sql/schema/views/own_movement_imbalance.sql): the tax-tool files leave
-- own-account movements out, so they differ from the ledger by that amount; and
-- unknown_counterparty, an internal deposit or withdrawal whose other account is not named, so it
-- cannot be told apart from a transfer with another user.
-- Also (issue 20): unsettled, a record whose status is still not final (view open_records,
-- sql/schema/views/open_records.sql: a deposit or withdrawal pending, a transfer Processing, an order live) longer than
-- its limit (3 days for deposits, withdrawals and transfers, 30 days for orders; docs/ledger.md).
-- The sync re-checks it every run; until it is final it is not in the ledger.
-- And (issue 21): tool_left_out, each one-sided margin trade leg of the period (margin deal_in /
-- deal_out, exchange_in / exchange_out) that cointracker.csv leaves out (reports/cointracker.sql),
-- and each margin borrow and repay, which koinly.csv and cointracker.csv leave out (loan principal:
-- Koinly would read it as a purchase and a sale, CoinTracker has no tag for it; docs/ledger.md).
-- Columns: kind (record|unclassified|history_gap|own_movement_unmatched|unknown_counterparty|unpriced|tool_left_out|unsettled),
--   source, account_uid, record_id, time_utc, to_utc (gaps: end of the gap; unmatched: last leg), problem
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
  UNION ALL
  SELECT 'own_movement_unmatched', 'tax_transactions', '', coin, first_ts, last_ts,
         'own-account movements of ' || coin || ' net to ' || money_text(net) || ' over ' || legs
           || ' legs, not 0: the other leg of a transfer between the exported accounts or wallets is missing from the exchange''s history; the koinly, cointracker and ctc files leave own-account movements out, so their ' || coin || ' balance differs from the ledger by this amount'
  FROM own_movement_imbalance
  UNION ALL
  SELECT 'tool_left_out', 'margin_records', account_uid, source_id || '@' || wallet, ts, NULL,
         'left out of cointracker.csv: a one-sided margin trade leg (' || kind || ' ' || money_text(amount) || ' ' || coin
           || '); CoinTracker documents its margin tag for a trade, not for one side of it, and would tax an untagged Receive as income. Enter the margin trade in CoinTracker by hand if you need it there'
  FROM ledger
  WHERE source = 'margin_records' AND kind IN ('trade_buy', 'trade_sell', 'exchange_in', 'exchange_out')
    AND ts >= (:'from')::timestamp AT TIME ZONE :'tz' AND ts < (:'to')::timestamp AT TIME ZONE :'tz'
  UNION ALL
  SELECT 'tool_left_out', 'margin_records', account_uid, source_id || '@' || wallet, ts, NULL,
         'left out of koinly.csv and cointracker.csv: loan principal (' || kind || ' ' || money_text(amount) || ' ' || coin
           || '), neither a purchase nor a sale in the ledger''s gains; Koinly would read it as one, CoinTracker has no tag for it. The tool''s '
           || coin || ' balance differs from the ledger by the outstanding principal'
  FROM ledger
  WHERE source = 'margin_records' AND kind IN ('borrow', 'repay')
    AND ts >= (:'from')::timestamp AT TIME ZONE :'tz' AND ts < (:'to')::timestamp AT TIME ZONE :'tz'
  UNION ALL
  SELECT 'unknown_counterparty', 'deposits', account_uid, order_id, c_time, NULL,
         'internal deposit with no sender UID: the tax-tool files keep it as a deposit from outside your accounts; if it came from one of them, remove that account''s matching withdrawal from the tool by hand'
  FROM deposits WHERE norm_status(status) = 'success' AND norm_dest(dest) = 'internal' AND coalesce(from_address, '') = ''
  UNION ALL
  SELECT 'unknown_counterparty', 'withdrawals', account_uid, order_id, c_time, NULL,
         'internal withdrawal with no receiver UID: the tax-tool files keep it as a withdrawal to outside your accounts; if it went to one of them, remove that account''s matching deposit from the tool by hand'
  FROM withdrawals WHERE norm_status(status) = 'success' AND norm_dest(dest) = 'internal' AND coalesce(to_address, '') = ''
  UNION ALL
  SELECT 'unsettled', source, account_uid, record_id, since, NULL,
         'still ' || coalesce(status, '(no status)') || ' after ' || justify_interval(date_trunc('hour', now() - since))::text
           || ' (limit ' || open_limit::text || '): every sync asks the exchange again until it is final; until then it is not in the ledger or any tax file'
  FROM open_records WHERE since < now() - open_limit
) dq
WHERE (ts IS NULL OR ts < (:'to')::timestamp AT TIME ZONE :'tz')
  AND (coalesce(ts_to, ts) IS NULL OR coalesce(ts_to, ts) >= (:'from')::timestamp AT TIME ZONE :'tz')
  AND (:'account' = '' OR account_uid = :'account' OR kind = 'own_movement_unmatched')
ORDER BY kind, ts NULLS FIRST, source, account_uid, record_id;
