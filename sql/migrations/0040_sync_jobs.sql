-- Syncs spread over worker processes (graphile-worker, in its own schema `graphile_worker`).
-- What tradeledger itself records beside the engine's tables:

-- Which accounts a run synced, and the backend holding its per-account locks: a run left
-- 'running' is only marked 'interrupted' once that backend is gone, so one worker's run never
-- declares another live worker's run dead.
ALTER TABLE sync_runs ADD COLUMN account_uids text[];
ALTER TABLE sync_runs ADD COLUMN backend_pid integer;
CREATE INDEX sync_runs_account_uids ON sync_runs USING gin (account_uids);

-- One row per live worker process: its engine pool id (what graphile-worker writes in
-- jobs.locked_by), host, OS pid, and the backend of a connection it holds open for life. A row
-- whose backend is gone (the process died: kill -9, OOM, a crashed machine once TCP keepalive
-- notices) or whose heartbeat stopped has its jobs unlocked by the next live worker, so another
-- worker takes them at once instead of after the engine's 4-hour lock timeout.
CREATE TABLE sync_workers (
  pool_id      text PRIMARY KEY,
  host         text        NOT NULL,
  pid          integer     NOT NULL,
  backend_pid  integer     NOT NULL,
  concurrency  integer     NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- Sync jobs that failed for good (configuration or authentication): not retried, reported once.
CREATE TABLE sync_job_failures (
  id           bigserial PRIMARY KEY,
  account_uid  text        NOT NULL,
  account_name text        NOT NULL,
  job_id       text,
  code         text        NOT NULL,
  message      text        NOT NULL,
  failed_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sync_job_failures_account ON sync_job_failures (account_uid, failed_at DESC);
