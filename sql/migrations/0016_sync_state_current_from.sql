-- Current-state streams (pending trigger orders) list only what is still current, so each run
-- re-reads from the oldest record that was current at the partition's last complete read. That
-- time is kept per partition here: written when a partition's read completes (its plan's end when
-- nothing was current), left as it was when a read fails. NULL: not recorded yet (a database
-- synced before this column; the engine then falls back to the stream's own estimate).
ALTER TABLE sync_state ADD COLUMN current_from timestamptz;
