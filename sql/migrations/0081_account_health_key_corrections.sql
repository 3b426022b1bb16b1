-- The accounts page's and `tradeledger status`'s warning counts (account_health_counts,
-- sql/migrations/0071) stand while account_health_key() is unchanged. That key saw syncs and
-- imported files only, but three other writes change the counts:
--   - a correction (tradeledger classify, the portal's Corrections page): a price given to an
--     unpriced row takes it out of the unpriced count; undoing it puts it back. Corrections are
--     never deleted: a new one has a higher id, an undo sets undone_at (a replacement is a new
--     row), so max(id) and max(undone_at) change with every one.
--   - quote_coins (the data_quality hint for a symbol without a coin says to INSERT its quote
--     coin) and stablecoins (valued 1:1 by ledger_valued): small tables, so their whole content.
-- Without these, a correction undone after a sync left the page showing no unpriced row while
-- the tax figures had one, until the next sync.
-- The times are now epoch seconds: as timestamptz text they were written in the session's
-- TimeZone, so two readers in different zones computed different keys for the same data and
-- replaced each other's stored counts.
CREATE OR REPLACE FUNCTION account_health_key() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws('|', (SELECT max(id) FROM sync_runs), (SELECT extract(epoch FROM max(finished_at)) FROM sync_runs),
         (SELECT extract(epoch FROM max(updated_at)) FROM sync_state), (SELECT extract(epoch FROM max(recorded_at)) FROM history_gaps),
         (SELECT count(*) FROM imported_files), (SELECT extract(epoch FROM max(imported_at)) FROM imported_files),
         'c' || coalesce((SELECT max(id) FROM ledger_corrections)::text, ''),
         'u' || coalesce((SELECT extract(epoch FROM max(undone_at)) FROM ledger_corrections)::text, ''),
         'q' || (SELECT md5(coalesce(string_agg(coin, ',' ORDER BY coin), '')) FROM quote_coins),
         's' || (SELECT md5(coalesce(string_agg(coin || '=' || peg, ',' ORDER BY coin), '')) FROM stablecoins))
$$;
