-- Account locks that cannot be lost silently (issue 23).
--
-- A sync holds one advisory lock per account on one connection. If that connection dies (a
-- PostgreSQL restart, a failover, a terminated backend) the lock is gone, but the sync's other
-- pooled connections would carry on writing, beside a second sync that took the lock. So each
-- lock taken also takes a fencing token: the account's row here, claimed on the very connection
-- that holds the lock, with a generation number one higher than the last one, the run that now
-- holds the account and the backend holding its lock. Every checkpoint and page write of a run
-- calls tradeledger_fence(account, run) in its own statement: it fails (SQLSTATE TLF01) unless
-- that run is the account's latest claim AND the claiming backend still holds the lock. A run
-- that lost its lock therefore commits nothing more, whether or not another run has taken over.
CREATE TABLE sync_fences (
  account_uid text        PRIMARY KEY,
  -- One more each time a run takes the account's lock: the fencing token.
  generation  bigint      NOT NULL,
  -- The run that holds the account (its sync_runs id).
  run_id      bigint      NOT NULL,
  -- The backend holding the advisory lock (pg_locks.pid) for that run.
  holder_pid  integer     NOT NULL,
  taken_at    timestamptz NOT NULL DEFAULT now()
);

-- The tokens a run took, by account UID: {"2000001117": 7}. Runs of one account in id order
-- carry strictly increasing tokens.
ALTER TABLE sync_runs ADD COLUMN fence_tokens jsonb;

-- True when run `run` may write account `account`; raises TLF01 otherwise. FOR SHARE: a claim
-- (an UPDATE of the row) waits for writes already past this check to commit, and a write after
-- a claim sees it. No row (an account no fenced run ever locked) or no run: nothing to fence.
CREATE FUNCTION tradeledger_fence(account text, run bigint) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  f record;
BEGIN
  IF run IS NULL THEN RETURN true; END IF;
  SELECT generation, run_id, holder_pid INTO f FROM sync_fences WHERE account_uid = account FOR SHARE;
  IF NOT FOUND THEN RETURN true; END IF;
  IF f.run_id <> run THEN
    RAISE EXCEPTION 'sync run % lost the lock of account %: run % took it over (fencing token %)', run, account, f.run_id, f.generation
      USING ERRCODE = 'TLF01';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.pid = f.holder_pid
      AND l.classid = hashtext('tradeledger.sync')::oid AND l.objid = hashtext(account)::oid AND l.objsubid = 2) THEN
    RAISE EXCEPTION 'sync run % lost the lock of account %: the connection holding it (backend %) is gone', run, account, f.holder_pid
      USING ERRCODE = 'TLF01';
  END IF;
  RETURN true;
END $$;

-- The checkpoint tables check the writing run on every row: a page batch commits in the same
-- statement as its checkpoint, so a fenced-off checkpoint takes its pages down with it.
CREATE FUNCTION tradeledger_fence_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the table's run column (last_run_id, or run_id in history_gaps).
  PERFORM tradeledger_fence(NEW.account_uid, (to_jsonb(NEW) ->> TG_ARGV[0])::bigint);
  RETURN NEW;
END $$;

CREATE TRIGGER sync_state_fence BEFORE INSERT OR UPDATE ON sync_state FOR EACH ROW EXECUTE FUNCTION tradeledger_fence_row('last_run_id');
CREATE TRIGGER sync_windows_fence BEFORE INSERT OR UPDATE ON sync_windows FOR EACH ROW EXECUTE FUNCTION tradeledger_fence_row('last_run_id');
CREATE TRIGGER history_gaps_fence BEFORE INSERT OR UPDATE ON history_gaps FOR EACH ROW EXECUTE FUNCTION tradeledger_fence_row('run_id');

-- Worker liveness by heartbeat only: a worker's own connection is re-made after a restart, so
-- its backend pid says nothing; the row is re-written with every heartbeat.
ALTER TABLE sync_workers ALTER COLUMN backend_pid DROP NOT NULL;
