-- The windows of one stream partition that a sync walks in parallel (a first sync or a long
-- catch-up; see src/extract/README.md). All of a partition's rows are written together before any
-- page is read; each window's cursor (the next, older page) and `done` commit with its pages;
-- once every window is read, the partition's watermark in sync_state moves to their end and the
-- rows are deleted, in one statement. Rows left here mean an interrupted run: the next run
-- finishes these windows first.
CREATE TABLE sync_windows (
  account_uid   text        NOT NULL,
  stream        text        NOT NULL,
  partition     text        NOT NULL,
  window_start  timestamptz NOT NULL,
  window_end    timestamptz NOT NULL,
  cursor        text,
  done          boolean     NOT NULL DEFAULT false,
  last_run_id   bigint,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_uid, stream, partition, window_start)
);
