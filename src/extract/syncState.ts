import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Checkpoint } from './windowPlan.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { poolOf } from '../db/createDb.js';
import { sqlEpochMs } from '../load/sqlEpochMs.js';
import { unreadHistoryFrom } from './historyGap.js';

/** Which (account, stream, partition) a checkpoint belongs to. */
export interface StateKey {
  readonly account: string;
  readonly stream: string;
  readonly partition: string;
}

/**
 * Reads a partition's checkpoint from sync_state; undefined before its first page.
 *
 * @example
 * const cp = await readCheckpoint(db, { account: uid, stream: 'deposits', partition: 'all' });
 */
export async function readCheckpoint(db: Kysely<any>, key: StateKey): Promise<Checkpoint | undefined> {
  const { rows } = await sql<{ watermark: Date | null; window_start: Date | null; window_end: Date | null; cursor: string | null; current_from: Date | null; history_from: Date | null }>`
    SELECT watermark, window_start, window_end, cursor, current_from, history_from FROM sync_state
    WHERE account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}`.execute(db);
  const r = rows[0];
  if (r === undefined) return undefined;
  const cp: { -readonly [K in keyof Checkpoint]: Checkpoint[K] } = {};
  if (r.watermark) cp.watermark = r.watermark.getTime();
  if (r.current_from) cp.currentFrom = r.current_from.getTime();
  if (r.history_from) cp.historyFrom = r.history_from.getTime();
  if (r.window_start && r.window_end) {
    cp.windowStart = r.window_start.getTime();
    cp.windowEnd = r.window_end.getTime();
    if (r.cursor) cp.cursor = r.cursor;
  }
  return cp;
}

export interface CheckpointWrite {
  readonly watermark: number | undefined;
  /** The window being walked and the cursor for its next page; undefined once it is finished. */
  readonly window: { start: number; end: number; cursor: string | undefined } | undefined;
  readonly status: 'running' | 'ok' | 'failed';
  readonly runId: string;
  readonly error?: string | null;
}

/**
 * The checkpoint upsert as SQL text with numbered parameters starting after `offset`, so it can
 * run alone or as a CTE of the page's upsert: one statement, one atomic commit. The watermark
 * only ever moves forward.
 *
 * @example
 * const { text, params } = checkpointStatement(key, { watermark, window, status: 'running', runId });
 */
export function checkpointStatement(key: StateKey, w: CheckpointWrite, offset = 0): { text: string; params: unknown[] } {
  const ts = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const params = [key.account, key.stream, key.partition, ts(w.watermark), ts(w.window?.start), ts(w.window?.end),
    w.window?.cursor ?? null, w.status, w.error ?? null, w.runId];
  const $ = (n: number) => `$${offset + n}`;
  const text = `INSERT INTO sync_state AS s (account_uid, stream, partition, watermark, window_start, window_end, cursor, status, last_error, last_run_id, updated_at)
    VALUES (${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}::timestamptz, ${$(5)}::timestamptz, ${$(6)}::timestamptz, ${$(7)}, ${$(8)}, ${$(9)}, ${$(10)}::bigint, now())
    ON CONFLICT (account_uid, stream, partition) DO UPDATE SET
      watermark = GREATEST(s.watermark, EXCLUDED.watermark),
      window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end, cursor = EXCLUDED.cursor,
      status = EXCLUDED.status, last_error = EXCLUDED.last_error, last_run_id = EXCLUDED.last_run_id, updated_at = now()`;
  return { text, params };
}

/**
 * Records a partition's final status of a run without touching its window or watermark.
 *
 * @example
 * await markState(db, key, 'failed', runId, 'E5: 429 after 7 attempts');
 */
export async function markState(db: Kysely<any>, key: StateKey, status: 'running' | 'ok' | 'failed', runId: string, error: string | null): Promise<void> {
  await sql`
    INSERT INTO sync_state (account_uid, stream, partition, status, last_error, last_run_id)
    VALUES (${key.account}, ${key.stream}, ${key.partition}, ${status}, ${error}, ${runId})
    ON CONFLICT (account_uid, stream, partition) DO UPDATE SET status = EXCLUDED.status,
      last_error = EXCLUDED.last_error, last_run_id = EXCLUDED.last_run_id, updated_at = now()`.execute(db);
}

/** A window of a partition walked in parallel (sync_windows), as a killed run may have left it. */
export interface ParallelWindow {
  readonly start: number;
  readonly end: number;
  readonly cursor?: string;
  readonly done: boolean;
}

/**
 * The parallel windows of a partition, oldest first; empty when none are pending.
 *
 * @example
 * const left = await readParallelWindows(db, key);
 */
export async function readParallelWindows(db: Kysely<any>, key: StateKey): Promise<ParallelWindow[]> {
  const { rows } = await sql<{ window_start: Date; window_end: Date; cursor: string | null; done: boolean }>`
    SELECT window_start, window_end, cursor, done FROM sync_windows
    WHERE account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}
    ORDER BY window_start`.execute(db);
  return rows.map((r) => ({ start: r.window_start.getTime(), end: r.window_end.getTime(), done: r.done, ...(r.cursor ? { cursor: r.cursor } : {}) }));
}

/**
 * Writes all parallel windows of a partition in one statement, before any of them is read, so
 * a killed run always knows every window it still owes.
 *
 * @example
 * await createParallelWindows(db, key, windows, runId);
 */
export async function createParallelWindows(db: Kysely<any>, key: StateKey, windows: readonly { start: number; end: number }[], runId: string): Promise<void> {
  await sql`
    INSERT INTO sync_windows (account_uid, stream, partition, window_start, window_end, last_run_id)
    SELECT ${key.account}, ${key.stream}, ${key.partition}, ${sql.raw(sqlEpochMs('w.s'))}, ${sql.raw(sqlEpochMs('w.e'))}, ${runId}::bigint
    FROM unnest(${windows.map((w) => w.start)}::bigint[], ${windows.map((w) => w.end)}::bigint[]) AS w(s, e)`.execute(db);
}

/**
 * Records where a first sync's read of a partition begins (as asked: --since, else historyDays
 * back), so that a later, earlier --since knows what it has to add.
 *
 * @example
 * await recordHistoryFrom(db, key, plan.historyFrom, runId);
 */
export async function recordHistoryFrom(db: Kysely<any>, key: StateKey, at: number, runId: string): Promise<void> {
  await sql`
    INSERT INTO sync_state (account_uid, stream, partition, status, last_run_id, history_from)
    VALUES (${key.account}, ${key.stream}, ${key.partition}, 'running', ${runId}::bigint, ${new Date(at).toISOString()}::timestamptz)
    ON CONFLICT (account_uid, stream, partition) DO UPDATE SET history_from = EXCLUDED.history_from,
      last_run_id = EXCLUDED.last_run_id, updated_at = now()`.execute(db);
}

/**
 * Plans a backfill in one statement: its windows go into sync_windows (a killed run finishes them
 * first, like any parallel windows), the partition's start moves to `historyFrom`, and the gap
 * "before the default start" goes (history before --since is left out by choice, as on a first
 * sync with --since). So a backfill is planned once, and either read or owed.
 *
 * @example
 * await createBackfillWindows(db, key, backfill.windows, backfill.historyFrom, runId);
 */
export async function createBackfillWindows(db: Kysely<any>, key: StateKey, windows: readonly { start: number; end: number }[], historyFrom: number, runId: string): Promise<void> {
  await sql`
    WITH w AS (
      INSERT INTO sync_windows (account_uid, stream, partition, window_start, window_end, last_run_id)
      SELECT ${key.account}, ${key.stream}, ${key.partition}, ${sql.raw(sqlEpochMs('w.s'))}, ${sql.raw(sqlEpochMs('w.e'))}, ${runId}::bigint
      FROM unnest(${windows.map((w) => w.start)}::bigint[], ${windows.map((w) => w.end)}::bigint[]) AS w(s, e)
    ), g AS (
      DELETE FROM history_gaps WHERE account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}
        AND gap_from = ${sql.raw(sqlEpochMs(String(unreadHistoryFrom)))}
    )
    UPDATE sync_state SET history_from = ${new Date(historyFrom).toISOString()}::timestamptz, status = 'running', last_run_id = ${runId}::bigint, updated_at = now()
    WHERE account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}`.execute(db);
}

/**
 * One parallel window's progress as SQL text (parameters numbered after `offset`), committed
 * in the statement that loads its pages: the cursor of the next page, or done.
 *
 * @example
 * const { text, params } = windowProgressStatement(key, window.start, next, false, runId);
 */
export function windowProgressStatement(key: StateKey, windowStart: number, cursor: string | undefined, done: boolean, runId: string, offset = 0): { text: string; params: unknown[] } {
  const $ = (n: number) => `$${offset + n}`;
  return {
    text: `UPDATE sync_windows SET cursor = ${$(5)}, done = ${$(6)}, last_run_id = ${$(7)}::bigint, updated_at = now()
      WHERE account_uid = ${$(1)} AND stream = ${$(2)} AND partition = ${$(3)} AND window_start = ${sqlEpochMs(`${$(4)}::bigint`)}`,
    params: [key.account, key.stream, key.partition, windowStart, done ? null : cursor ?? null, done, runId],
  };
}

/**
 * Closes a partition's parallel windows once all are read: the watermark moves to `end` and the
 * window rows go, in one statement.
 *
 * @example
 * await finishParallelWindows(db, key, end, runId);
 */
export async function finishParallelWindows(db: Kysely<any>, key: StateKey, end: number, runId: string): Promise<void> {
  const cp = checkpointStatement(key, { watermark: end, window: undefined, status: 'running', runId }, 3);
  await poolOf(db).query(`WITH gone AS (DELETE FROM sync_windows WHERE account_uid = $1 AND stream = $2 AND partition = $3) ${cp.text}`,
    [key.account, key.stream, key.partition, ...cp.params]);
}

/**
 * Records, once a current-state partition's read is complete, the oldest record it found still
 * current (or the plan's end when none was): the next run re-reads from there.
 *
 * @example
 * await recordCurrentFrom(db, key, oldestSeen ?? plan.end, runId);
 */
export async function recordCurrentFrom(db: Kysely<any>, key: StateKey, at: number, runId: string): Promise<void> {
  // last_run_id: the account's fence (sync_fences) checks the run writing the row.
  await sql`UPDATE sync_state SET current_from = ${new Date(at).toISOString()}::timestamptz, last_run_id = ${runId}::bigint
    WHERE account_uid = ${key.account} AND stream = ${key.stream} AND partition = ${key.partition}`.execute(db);
}

/**
 * Where a current-state partition's read must start at the latest: the oldest record still
 * current at its last complete read (`current_from`), or the stream's own estimate for a
 * partition synced before that was recorded. undefined for other streams and first reads.
 *
 * @example
 * const rescanFrom = await currentRescanFrom(db, planOrders, uid, partition, checkpoint);
 */
export async function currentRescanFrom(db: Kysely<any>, stream: HistoryStream, account: string, partition: Partition, checkpoint: Checkpoint | undefined): Promise<number | undefined> {
  if (!stream.current || !checkpoint) return undefined;
  return checkpoint.currentFrom ?? stream.current.oldestCurrent(db, account, partition);
}
