-- Bookkeeping of the sync: the accounts it knows, each run, each stream's checkpoint, and the
-- history it knows it cannot reach.

CREATE TABLE accounts (
  uid        text PRIMARY KEY,
  name       text        NOT NULL,
  kind       text        NOT NULL CHECK (kind IN ('main', 'sub', 'demo')),
  parent_uid text,
  added_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sync_runs (
  id          bigserial PRIMARY KEY,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- running | ok | partial | failed
  status      text        NOT NULL DEFAULT 'running',
  options     jsonb       NOT NULL DEFAULT '{}',
  -- { "<account>/<stream>/<partition>": { inserted, updated, unchanged, pages, requests } }
  counts      jsonb       NOT NULL DEFAULT '{}',
  errors      jsonb       NOT NULL DEFAULT '[]',
  gaps        jsonb       NOT NULL DEFAULT '[]'
);

-- One row per (account, stream, partition). The checkpoint (window and cursor) commits in the
-- same transaction as the page of rows it describes, so a killed run resumes mid-window.
CREATE TABLE sync_state (
  account_uid   text        NOT NULL,
  stream        text        NOT NULL,
  partition     text        NOT NULL DEFAULT 'all',
  -- everything before watermark has been read completely
  watermark     timestamptz,
  -- the window being walked, and the cursor inside it (NULL = start at the newest page)
  window_start  timestamptz,
  window_end    timestamptz,
  cursor        text,
  -- the smallest id seen in the current window, to dedupe at window edges
  status        text        NOT NULL DEFAULT 'idle',
  last_error    text,
  last_run_id   bigint,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_uid, stream, partition)
);

-- History an endpoint's horizon hides (e.g. E21 only serves 90 days). Every report lists these.
CREATE TABLE history_gaps (
  account_uid text        NOT NULL,
  stream      text        NOT NULL,
  partition   text        NOT NULL DEFAULT 'all',
  gap_from    timestamptz NOT NULL,
  gap_to      timestamptz NOT NULL,
  reason      text        NOT NULL,
  run_id      bigint,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_uid, stream, partition, gap_from)
);
