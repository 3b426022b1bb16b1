/**
 * The warning counts of the accounts page and `tradeledger status` that read the whole ledger:
 * malformed records and unclassified rows (data_quality), rows without a USD value
 * (ledger_valued), unexplained and opening balances (reconciliation), and unsettled deposits,
 * withdrawals and transfers. At 1M ledger rows they take seconds, so the sync computes them once
 * at its end ({@link storeHealthCounts}) and keeps them in account_health_counts under the
 * bookkeeping key (account_health_key(), sql/migrations/0071_account_health_counts.sql) they belong to; a reader with that key takes
 * them as they are (issue 24 item 6).
 */

/** Per account uid. */
export interface HealthCounts {
  flagged: number;
  unclassified: number;
  unpriced: number;
  unexplained: number;
  opening: number;
  unsettled: number;
}

/** Runs one statement and gives its rows (a pg pool's or a Kysely transaction's). */
export type RunQuery = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

// The fiat the unpriced rows are counted in: the report command's default (--fiat USD), which
// needs no ECB file, so a warning means a coin has no candle, not that an FX import is missing.
export const warningFiat = 'USD';

const queries = {
  quality: `SELECT account_uid, kind, count(*)::int AS n FROM data_quality WHERE kind IN ('record', 'unclassified') GROUP BY 1, 2`,
  unpriced: `SELECT account_uid, count(*)::int AS n FROM ledger_valued('${warningFiat}') WHERE price_source = 'unpriced' GROUP BY 1`,
  recon: `SELECT account_uid, count(*) FILTER (WHERE status = 'unexplained')::int AS unexplained,
                 count(*) FILTER (WHERE status = 'opening_balance')::int AS opening
          FROM reconciliation WHERE status IN ('unexplained', 'opening_balance') GROUP BY 1`,
  unsettled: `SELECT account_uid, count(*)::int AS n FROM (
                SELECT account_uid FROM deposits WHERE norm_status(status) = 'pending'
                UNION ALL SELECT account_uid FROM withdrawals WHERE norm_status(status) = 'pending'
                UNION ALL SELECT account_uid FROM transfers WHERE norm_status(status) = 'pending') o GROUP BY 1`,
};

const zero = (): HealthCounts => ({ flagged: 0, unclassified: 0, unpriced: 0, unexplained: 0, opening: 0, unsettled: 0 });

/**
 * Computes the counts. `parallel` runs the four statements at once (a pool); else one after
 * another (one connection, one snapshot).
 *
 * @example
 * const counts = await computeHealthCounts((t) => pool.query(t).then((r) => r.rows), true);
 */
export async function computeHealthCounts(run: RunQuery, parallel: boolean): Promise<Record<string, HealthCounts>> {
  const [quality, unpriced, recon, unsettled] = parallel
    ? await Promise.all([run(queries.quality), run(queries.unpriced), run(queries.recon), run(queries.unsettled)])
    : [await run(queries.quality), await run(queries.unpriced), await run(queries.recon), await run(queries.unsettled)];
  const out: Record<string, HealthCounts> = {};
  const of = (uid: unknown): HealthCounts | undefined => {
    if (uid === null || uid === undefined) return undefined;
    return (out[String(uid)] ??= zero());
  };
  for (const r of quality) {
    const h = of(r.account_uid);
    if (!h) continue;
    if (r.kind === 'record') h.flagged += Number(r.n); else h.unclassified += Number(r.n);
  }
  for (const r of unpriced) { const h = of(r.account_uid); if (h) h.unpriced = Number(r.n); }
  for (const r of recon) { const h = of(r.account_uid); if (h) { h.unexplained = Number(r.unexplained); h.opening = Number(r.opening); } }
  for (const r of unsettled) { const h = of(r.account_uid); if (h) h.unsettled = Number(r.n); }
  return out;
}

/**
 * The stored counts for the current bookkeeping key, or null when none are stored for it.
 *
 * @example
 * const counts = await storedHealthCounts((t) => pool.query(t).then((r) => r.rows));
 */
export async function storedHealthCounts(run: RunQuery): Promise<Record<string, HealthCounts> | null> {
  const rows = await run(`SELECT counts FROM account_health_counts WHERE key = account_health_key()`);
  return rows.length === 0 ? null : (rows[0]!.counts as Record<string, HealthCounts>);
}

/**
 * Computes the counts and stores them under the bookkeeping key, both read in the caller's one
 * snapshot (`run` inside a REPEATABLE READ transaction), replacing the counts of older keys.
 *
 * @example
 * await db.transaction().setIsolationLevel('repeatable read').execute((trx) => storeHealthCounts((t, v) => trx.executeQuery(CompiledQuery.raw(t, v)).then((r) => r.rows)));
 */
export async function storeHealthCounts(run: RunQuery): Promise<void> {
  const key = String((await run(`SELECT account_health_key() AS key`))[0]!.key);
  const counts = await computeHealthCounts(run, false);
  await run(`DELETE FROM account_health_counts WHERE key <> $1`, [key]);
  await run(`INSERT INTO account_health_counts (key, counts) VALUES ($1, $2::jsonb)
             ON CONFLICT (key) DO UPDATE SET counts = EXCLUDED.counts, computed_at = EXCLUDED.computed_at`, [key, JSON.stringify(counts)]);
}
