-- The portal's accounts page and `tradeledger status` (issue 24 item 6): their warning counts read
-- the whole ledger (data_quality, ledger_valued('USD'), reconciliation): seconds at 1M ledger
-- rows. The sync computes them once at its end (src/db/accountHealthCounts.ts) and keeps them
-- here under the bookkeeping key they were computed at; a reader whose key is the current one
-- takes them as they are, any other computes them afresh (and stores them).
CREATE TABLE account_health_counts (
  key text PRIMARY KEY,
  computed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- {"<account uid>": {"flagged": n, "unclassified": n, "unpriced": n, "unexplained": n, "opening": n, "unsettled": n}, ...}
  counts jsonb NOT NULL
);

-- What changes the counts: a sync run (a new run, its end, a checkpoint, a gap) or an imported
-- file (transactions or FX rates). Any change gives another key.
CREATE FUNCTION account_health_key() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws('|', (SELECT max(id) FROM sync_runs), (SELECT max(finished_at) FROM sync_runs),
         (SELECT max(updated_at) FROM sync_state), (SELECT max(recorded_at) FROM history_gaps),
         (SELECT count(*) FROM imported_files), (SELECT max(imported_at) FROM imported_files))
$$;
