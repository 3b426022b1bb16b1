import type pg from 'pg';
import { currentHealthCounts, warningFiat } from '../db/accountHealthCounts.js';
import { queryWithoutJit } from '../db/withoutJit.js';

/** What the accounts page shows for one account: freshness and everything to distrust. */
export interface AccountHealth {
  uid: string;
  /** The newest checkpoint of any stream (ISO), or null before the first sync. */
  lastSync: string | null;
  /** The oldest stream watermark (ISO): everything before it has been read for every stream. */
  watermark: string | null;
  streams: number;
  failedStreams: { stream: string; partition: string; error: string | null }[];
  /**
   * History the sync could not or did not read. `kind`: 'tax' (a stream whose records carry tax
   * figures), 'orders' (an order stream: orders carry no tax figure; `coveredByFills` when that
   * product's fills have no gap over the same dates), 'default_start' (before a first sync's
   * default start, historyGap.ts).
   */
  gaps: { stream: string; from: string; to: string; reason: string; kind: 'tax' | 'orders' | 'default_start'; coveredByFills: boolean }[];
  flaggedRecords: number;
  unclassifiedRows: number;
  /** Ledger rows no valuation rule could price in `unpricedFiat` (data-quality.csv kind 'unpriced'). */
  unpricedRows: number;
  unpricedFiat: string;
  /** Balances whose difference from the exchange's figure is unexplained (sql/schema/views/reconciliation.sql). */
  reconciliationDifferences: number;
  /** Balances held before the first record read, without a known cost (opening-balances.csv). */
  openingBalances: number;
  /** Deposits, withdrawals and transfers whose status is not final yet (view open_records). */
  unsettledRecords: number;
  /** Of those, the ones open longer than their documented limit (open_records.open_limit, 3 days). */
  overdueRecords: number;
  /** When the oldest of them was made (ISO), or null. */
  unsettledSince: string | null;
  /** Disposals the newest gains run of this account (or of all accounts) matched with no cost. */
  disposalsWithoutCost: number;
}

// The order streams, and the stream whose records carry the same trades' tax figures.
const fillsOfOrders: Record<string, string | null> = {
  spotOrders: 'spotFills', futuresOrders: 'futuresFills', crossMarginOrders: 'marginRecords', planOrders: null,
};


const emptyHealth = (uid: string): AccountHealth => ({
  uid, lastSync: null, watermark: null, streams: 0, failedStreams: [], gaps: [], flaggedRecords: 0, unclassifiedRows: 0, unpricedRows: 0, unpricedFiat: warningFiat, reconciliationDifferences: 0,
  openingBalances: 0, unsettledRecords: 0, overdueRecords: 0, unsettledSince: null, disposalsWithoutCost: 0,
});

const iso = (v: Date | null): string | null => (v === null ? null : v.toISOString());

/**
 * Reads every account's health in one go. The data-quality and reconciliation views read the
 * whole ledger, so the result is cached until the sync bookkeeping changes (a new run, a new
 * checkpoint or gap), a file is imported (`tradeledger import fx|transactions`: new ledger rows
 * or rates change what is unpriced), or for at most `maxAgeMs`.
 *
 * @example
 * const health = accountHealthCache(pool);
 * const byUid = await health.read(); byUid.get('1000000001')?.gaps;
 */
export function accountHealthCache(pool: pg.Pool, maxAgeMs = 5 * 60_000): { read(): Promise<Map<string, AccountHealth>> } {
  let cached: { key: string; at: number; value: Promise<Map<string, AccountHealth>> } | undefined;
  return {
    async read() {
      const { rows } = await pool.query(
        `SELECT concat_ws('|', account_health_key(), (SELECT max(run_id) FROM gains_runs)) AS key`);
      const key = String(rows[0]?.key ?? '');
      if (!cached || cached.key !== key || Date.now() - cached.at > maxAgeMs) {
        const value = readAccountHealth(pool);
        value.catch(() => { if (cached?.value === value) cached = undefined; });
        cached = { key, at: Date.now(), value };
      }
      return cached.value;
    },
  };
}

/**
 * Reads every account's health without caching. The counts that read the whole ledger come from
 * account_health_counts when they were stored for the current bookkeeping key (by the last sync or
 * the first reader after a later change), else they are computed here and stored
 * (currentHealthCounts in accountHealthCounts.ts).
 *
 * @example
 * const byUid = await readAccountHealth(pool);
 */
export async function readAccountHealth(pool: pg.Pool): Promise<Map<string, AccountHealth>> {
  // The reads of whole views run without JIT (queryWithoutJit): compiling their plans cost seconds.
  const run = (text: string, values?: unknown[]) => queryWithoutJit(pool, text, values).then((r) => r.rows as Record<string, unknown>[]);
  const [state, gaps, counts, unsettled, noCost] = await Promise.all([
    pool.query(`SELECT account_uid, stream, partition, watermark, status, last_error, updated_at FROM sync_state ORDER BY account_uid, stream, partition`),
    pool.query(`SELECT account_uid, stream, partition, gap_from, gap_to, reason FROM history_gaps ORDER BY account_uid, gap_from, stream`),
    currentHealthCounts(run, (text, values) => pool.query(text, values).then((r) => r.rows as Record<string, unknown>[])),
    // Movements not final yet, read live: one in flight for hours is normal, one open past its
    // limit is not (docs/ledger.md), and which is which changes with the clock, not with a sync.
    pool.query(`SELECT account_uid, count(*)::int AS n, count(*) FILTER (WHERE since < now() - open_limit)::int AS overdue, min(since) AS since
                FROM open_records WHERE stream IN ('deposits', 'withdrawals', 'transfers') GROUP BY 1`),
    disposalsWithoutCost(pool),
  ]);
  const out = new Map<string, AccountHealth>();
  const of = (uid: string) => {
    let h = out.get(uid);
    if (!h) { h = emptyHealth(uid); out.set(uid, h); }
    return h;
  };
  for (const r of state.rows) {
    const h = of(r.account_uid);
    h.streams += 1;
    const updated = iso(r.updated_at)!;
    if (h.lastSync === null || updated > h.lastSync) h.lastSync = updated;
    const watermark = iso(r.watermark);
    if (watermark !== null && (h.watermark === null || watermark < h.watermark)) h.watermark = watermark;
    if (r.status === 'failed' || r.last_error) h.failedStreams.push({ stream: r.stream, partition: r.partition, error: r.last_error });
  }
  for (const r of gaps.rows) {
    const from = iso(r.gap_from)!;
    const to = iso(r.gap_to)!;
    const fills = fillsOfOrders[r.stream];
    const kind = from.startsWith('1970-01-01') ? 'default_start' as const : fills !== undefined ? 'orders' as const : 'tax' as const;
    // Fills cover an order gap when their own stream has no gap (other than the default start) over those dates.
    const coveredByFills = kind === 'orders' && (fills === null || !gaps.rows.some((g) =>
      g.account_uid === r.account_uid && g.stream === fills && iso(g.gap_from)! < to && iso(g.gap_to)! > from && !iso(g.gap_from)!.startsWith('1970-01-01')));
    of(r.account_uid).gaps.push({ stream: r.partition === 'all' ? r.stream : `${r.stream}/${r.partition}`, from, to, reason: r.reason, kind, coveredByFills });
  }
  for (const [uid, c] of Object.entries(counts)) {
    const h = of(uid);
    h.flaggedRecords = c.flagged;
    h.unclassifiedRows = c.unclassified;
    h.unpricedRows = c.unpriced;
    h.reconciliationDifferences = c.unexplained;
    h.openingBalances = c.opening;
  }
  for (const r of unsettled.rows) {
    const h = of(r.account_uid);
    h.unsettledRecords = r.n;
    h.overdueRecords = r.overdue;
    h.unsettledSince = iso(r.since);
  }
  for (const r of noCost) of(r.account_uid).disposalsWithoutCost += r.n;
  return out;
}

/**
 * The health of one account, or an empty one when nothing is known about it.
 *
 * @example
 * const h = healthOf(byUid, '1000000001');
 */
export function healthOf(byUid: Map<string, AccountHealth>, uid: string): AccountHealth {
  return byUid.get(uid) ?? emptyHealth(uid);
}

// The no-cost matches of the newest gains run per account scope ('' = a run over every account).
const NO_COST_SQL = `WITH latest AS (SELECT DISTINCT ON (account) run_id, account FROM gains_runs ORDER BY account, created_at DESC, run_id DESC)
  SELECT m.run_id, m.seq, l.account FROM gains_matches m JOIN latest l USING (run_id) WHERE m.basis = 'no-cost'`;

/**
 * Disposals without a cost basis in the newest gains run per account scope, by account. A run
 * over every account finds each disposal's account through its ledger rows; that join reads the
 * whole ledger view, so it runs only when such a run has a no-cost match (with it in one
 * statement, the planner sorted all 400,100 ledger rows of a 200,000-line import to find none:
 * 1.9 s of every `tradeledger status`).
 */
async function disposalsWithoutCost(pool: pg.Pool): Promise<{ account_uid: string; n: number }[]> {
  const { rows } = await queryWithoutJit(pool, `SELECT account, count(*)::int AS n FROM (${NO_COST_SQL}) nocost GROUP BY 1`);
  const out = rows.filter((r) => r.account !== '').map((r) => ({ account_uid: String(r.account), n: Number(r.n) }));
  if (!rows.some((r) => r.account === '')) return out;
  const all = await queryWithoutJit(pool, `WITH nocost AS (${NO_COST_SQL})
    SELECT g.account_uid, count(DISTINCT (n.run_id, n.seq))::int AS n FROM nocost n
    JOIN gains_match_rows r ON r.run_id = n.run_id AND r.seq = n.seq AND r.side = 'disposal'
    JOIN ledger g ON g.source = r.source AND g.source_id = r.source_id AND g.leg = r.leg
    WHERE n.account = '' GROUP BY 1`);
  return out.concat(all.rows.map((r) => ({ account_uid: String(r.account_uid), n: Number(r.n) })));
}
