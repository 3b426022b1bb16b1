-- Where each history partition's read begins. A later `sync --since` earlier than a partition's
-- first start used to be ignored without a word (--since applied to a first sync only), while
-- `status` and the portal named "run the first sync with --since" as the fix for history before
-- the default start: a fix that could not be applied to a database already synced. With the start
-- recorded, a later, earlier --since reads the span in between first (a backfill,
-- src/extract/windowPlan.ts) and moves the start back.
ALTER TABLE sync_state ADD COLUMN history_from timestamptz;
COMMENT ON COLUMN sync_state.history_from IS 'where the partition''s history read begins: a first sync''s start as asked (--since, else sync.historyDays back; before any horizon clamp), moved back when a later sync with an earlier --since plans its backfill; NULL: not known (synced before this column: a backfill then reads up to the watermark)';

-- The fence (sql/migrations/0068_account_fences.sql) refuses a write to a row whose last_run_id
-- is a run that no longer holds its account's lock, which is every row's here: off while this
-- migration fills the new column (no run reads it yet; the migration holds the table's lock).
ALTER TABLE sync_state DISABLE TRIGGER sync_state_fence;

-- Partitions synced before this column, where their bookkeeping says it. Each value is at or
-- after the true start, never before it: a later value only makes a backfill read again what it
-- already has, an earlier one would skip history.
--   1. The gap before a first sync's default start (from the Unix epoch) ends exactly there.
--   2. A horizon gap first recorded starts at the first sync's start as asked; later ones start
--      at a watermark, which is later.
WITH from_gaps AS (
  SELECT account_uid, stream, partition,
         COALESCE(max(gap_to) FILTER (WHERE gap_from = 'epoch'::timestamptz), min(gap_from)) AS history_from
  FROM history_gaps GROUP BY account_uid, stream, partition
)
UPDATE sync_state s SET history_from = g.history_from
FROM from_gaps g
WHERE s.account_uid = g.account_uid AND s.stream = g.stream AND s.partition = g.partition;

--   3. Otherwise every sync run of the account asked for a --since (each run's options keep it,
--      in Unix ms): the partition's first sync started at one of them, so at or before the
--      latest. Not when any run of the account had none (its start was historyDays back and is
--      not kept) or a run did not record its accounts.
WITH per_account AS (
  SELECT u.uid,
         max(CASE WHEN r.options->>'since' ~ '^-?[0-9]{1,15}$' THEN (r.options->>'since')::bigint END) AS since_ms,
         bool_and(coalesce(r.options->>'since' ~ '^-?[0-9]{1,15}$', false)) AS every_run_had_since
  FROM sync_runs r CROSS JOIN LATERAL unnest(r.account_uids) AS u(uid)
  GROUP BY u.uid
)
UPDATE sync_state s SET history_from = 'epoch'::timestamptz + a.since_ms * interval '1 millisecond'
FROM per_account a
WHERE s.history_from IS NULL AND s.account_uid = a.uid AND a.every_run_had_since
  AND NOT EXISTS (SELECT 1 FROM sync_runs WHERE account_uids IS NULL);

ALTER TABLE sync_state ENABLE TRIGGER sync_state_fence;
