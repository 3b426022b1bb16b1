import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../db/databaseTypes.js';
import { historyStreams, snapshotStreams } from './streamRegistry.js';

export interface StreamStatus {
  account: string;
  accountName: string;
  stream: string;
  partitions: number;
  /** The latest run that touched this stream (null for snapshots). */
  lastRunId: string | null;
  /** Oldest watermark across partitions: everything before it is complete. */
  watermark: string | null;
  /**
   * Where the history read begins, the latest across partitions (sync_state.history_from: --since,
   * else historyDays back; an earlier --since moves it back); null where a partition's is not known.
   */
  historyFrom: string | null;
  state: string;
  lastError: string | null;
  rows: number;
  gaps: { partition: string; from: string; to: string }[];
  /** Windows an interrupted run left in sync_windows; the next run reads them first. */
  pendingWindows: number;
  /**
   * Records whose status is not final yet (view open_records: pending, Processing, live), which
   * every sync re-checks until they are: how many, the oldest one's time, and how many of them
   * are open longer than the limit data-quality.csv flags (docs/ledger.md).
   */
  open: { count: number; oldest: string | null; overdue: number };
}

export interface SyncStatus {
  lastRun: { id: string; startedAt: string; finishedAt: string | null; status: string; errors: number } | null;
  streams: StreamStatus[];
}

/**
 * What the database holds per account and stream: the watermark, the checkpoint state and last
 * error, the row count, the known history gaps, the records still open (not final), and the
 * last run.
 *
 * @example
 * const s = await syncStatus(db); s.streams.filter((x) => x.state === 'failed')
 */
export async function syncStatus(db: Kysely<Database>): Promise<SyncStatus> {
  const r = await db.selectFrom('sync_runs').select(['id', 'started_at', 'finished_at', 'status', 'errors']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const states = await sql<{ account_uid: string; name: string | null; stream: string; partitions: string; watermark: Date | null; history_from: Date | null; failed: string; running: string; last_error: string | null; last_run_id: string | null }>`
    SELECT s.account_uid, a.name, s.stream, count(*)::text AS partitions, min(s.watermark) AS watermark,
           CASE WHEN bool_and(s.history_from IS NOT NULL) THEN max(s.history_from) END AS history_from,
           count(*) FILTER (WHERE s.status = 'failed')::text AS failed, count(*) FILTER (WHERE s.status = 'running')::text AS running,
           max(s.last_error) AS last_error, max(s.last_run_id)::text AS last_run_id
    FROM sync_state s LEFT JOIN accounts a ON a.uid = s.account_uid
    GROUP BY s.account_uid, a.name, s.stream ORDER BY a.name, s.stream`.execute(db);
  const gaps = await sql<{ account_uid: string; stream: string; partition: string; gap_from: Date; gap_to: Date }>`
    SELECT account_uid, stream, partition, gap_from, gap_to FROM history_gaps ORDER BY gap_from`.execute(db);
  const pending = new Map((await sql<{ account_uid: string; stream: string; n: string }>`
    SELECT account_uid, stream, count(*)::text AS n FROM sync_windows WHERE NOT done GROUP BY 1, 2`.execute(db)).rows.map((w) => [`${w.account_uid}/${w.stream}`, Number(w.n)]));
  const open = new Map((await sql<{ account_uid: string; stream: string; n: number; oldest: Date | null; overdue: number }>`
    SELECT account_uid, stream, count(*)::int AS n, min(since) AS oldest, count(*) FILTER (WHERE since < now() - open_limit)::int AS overdue
    FROM open_records GROUP BY 1, 2`.execute(db)).rows.map((o) => [`${o.account_uid}/${o.stream}`, { count: o.n, oldest: o.oldest?.toISOString() ?? null, overdue: o.overdue }]));
  const counts = new Map<string, number>();
  for (const s of historyStreams) {
    const { rows } = await sql<{ account_uid: string; n: string }>`SELECT account_uid, count(*)::text AS n FROM ${sql.table(s.table)} GROUP BY account_uid`.execute(db);
    for (const row of rows) counts.set(`${row.account_uid}/${s.name}`, Number(row.n));
  }
  const streams: StreamStatus[] = states.rows.map((s) => ({
    account: s.account_uid, accountName: s.name ?? s.account_uid, stream: s.stream, partitions: Number(s.partitions), lastRunId: s.last_run_id,
    watermark: s.watermark?.toISOString() ?? null, historyFrom: s.history_from?.toISOString() ?? null,
    state: Number(s.failed) > 0 ? 'failed' : Number(s.running) > 0 ? 'interrupted' : 'ok',
    lastError: s.last_error, rows: counts.get(`${s.account_uid}/${s.stream}`) ?? 0,
    gaps: gaps.rows.filter((g) => g.account_uid === s.account_uid && g.stream === s.stream)
      .map((g) => ({ partition: g.partition, from: g.gap_from.toISOString(), to: g.gap_to.toISOString() })),
    pendingWindows: pending.get(`${s.account_uid}/${s.stream}`) ?? 0,
    open: open.get(`${s.account_uid}/${s.stream}`) ?? { count: 0, oldest: null, overdue: 0 },
  }));
  const names = new Map((await db.selectFrom('accounts').select(['uid', 'name']).execute()).map((a) => [a.uid, a.name]));
  for (const s of snapshotStreams) {
    const accountCol = s.accountColumn;
    const { rows } = accountCol === null
      ? await sql<{ a: string; n: string; at: Date }>`SELECT '-' AS a, count(*)::text AS n, max(snapshot_at) AS at FROM ${sql.table(s.table)} HAVING count(*) > 0`.execute(db)
      : await sql<{ a: string; n: string; at: Date }>`SELECT ${sql.ref(accountCol)} AS a, count(*)::text AS n, max(snapshot_at) AS at FROM ${sql.table(s.table)} GROUP BY 1`.execute(db);
    for (const row of rows) {
      streams.push({ account: row.a, accountName: names.get(row.a) ?? row.a, stream: s.name, partitions: 0, lastRunId: null, watermark: row.at.toISOString(), historyFrom: null, state: 'snapshot', lastError: null, rows: Number(row.n), gaps: [], pendingWindows: 0, open: { count: 0, oldest: null, overdue: 0 } });
    }
  }
  return {
    lastRun: r ? { id: r.id, startedAt: r.started_at.toISOString(), finishedAt: r.finished_at?.toISOString() ?? null, status: r.status, errors: (r.errors as unknown[]).length } : null,
    streams,
  };
}
