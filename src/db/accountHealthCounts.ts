/**
 * The warning counts of the accounts page and `tradeledger status` that read the whole ledger:
 * malformed records and unclassified rows (data_quality), rows without a USD value
 * (ledger_valued), unexplained and opening balances (reconciliation), and unsettled deposits,
 * withdrawals and transfers. At 1M ledger rows they take seconds, so the sync computes them once
 * at its end ({@link storeHealthCounts}) and keeps them in account_health_counts under the
 * bookkeeping key (account_health_key(), sql/migrations/0071_account_health_counts.sql, 0081) they belong to; a reader with that key takes
 * them as they are, and a reader after any other change (an import, a correction) counts them and
 * stores them for the readers after it ({@link currentHealthCounts}; issue 24 item 6).
 */
import { withoutJit } from './withoutJit.js';

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

/**
 * The status (match, opening_balance, unexplained, no_snapshot) of every (account, wallet, coin)
 * exactly as the `reconciliation` view gives it (sql/schema/views/reconciliation.sql), computed
 * without what the counts do not need. The view walks every bill against the ledger's running
 * sum (a full join of ~1M grouped rows, three sorts, a window) to name where the balances part;
 * a status needs per wallet and coin only the first and the last bill, the ledger's sum up to
 * the first bill (the opening: the first gap) and up to the exchange's figure. At 1M records
 * 16-19 CPU-s -> 6.5 CPU-s (issue 24 item 2). Every part that decides the status is the view's,
 * clause for clause: `snaps`, `sums` (summed per ledger row rather than per moment: the same
 * totals), `joined`, `classed`. test/db/reconciliationStatus.test.ts holds it equal to the view's
 * status on every row of hand-made and synced ledgers: a change to the view's classes must change
 * this too.
 */
export const reconciliationStatusSql = `
  WITH moves AS (
    SELECT account_uid, wallet, coin, ts, amount FROM reconciliation_ledger
  ), bills AS (
    SELECT account_uid, wallet, coin, ts, record_id, balance FROM exchange_balance_series
  ), ends AS (
    SELECT account_uid, wallet, coin, min(ts) AS first_bill_at, max(ts) AS last_bill_at FROM bills GROUP BY account_uid, wallet, coin
  ), series AS (
    -- At one moment the view takes the balance of the bill with the greatest id (reconciliation_walk).
    SELECT e.account_uid, e.wallet, e.coin, e.last_bill_at,
           (array_agg(b.balance ORDER BY length(b.record_id) DESC, b.record_id DESC) FILTER (WHERE b.ts = e.first_bill_at))[1] AS first_balance,
           (array_agg(b.balance ORDER BY length(b.record_id) DESC, b.record_id DESC) FILTER (WHERE b.ts = e.last_bill_at))[1] AS last_balance,
           e.first_bill_at
    FROM ends e JOIN bills b ON b.account_uid = e.account_uid AND b.wallet = e.wallet AND b.coin = e.coin AND (b.ts = e.first_bill_at OR b.ts = e.last_bill_at)
    GROUP BY e.account_uid, e.wallet, e.coin, e.first_bill_at, e.last_bill_at
  ), openings AS (
    -- The view's series.opening: the gap at the first bill, the exchange's balance there less the
    -- ledger's running sum up to and including that moment.
    SELECT s.account_uid, s.wallet, s.coin, s.first_balance - COALESCE(sum(m.amount), 0::numeric) AS opening
    FROM series s LEFT JOIN moves m ON m.account_uid = s.account_uid AND m.wallet = s.wallet AND m.coin = s.coin AND m.ts <= s.first_bill_at
    GROUP BY s.account_uid, s.wallet, s.coin, s.first_balance
  ), futures_snaps AS (
    SELECT DISTINCT ON (account_uid, product_type, margin_coin) account_uid, futures_wallet(product_type) AS wallet, margin_coin AS coin,
           snapshot_at, account_equity - COALESCE(unrealized_pl, 0::numeric) AS balance
    FROM futures_account_snapshots WHERE account_equity IS NOT NULL
    ORDER BY account_uid, product_type, margin_coin, snapshot_at DESC
  ), snaps AS (
    SELECT COALESCE(s.account_uid, f.account_uid) AS account_uid, COALESCE(s.wallet, f.wallet) AS wallet, COALESCE(s.coin, f.coin) AS coin,
           COALESCE(s.last_bill_at, f.snapshot_at) AS snapshot_at, COALESCE(s.last_balance, f.balance) AS balance
    FROM series s FULL JOIN futures_snaps f ON f.account_uid = s.account_uid AND f.wallet = s.wallet AND f.coin = s.coin
  ), sums AS (
    SELECT m.account_uid, m.wallet, m.coin,
           sum(m.amount) FILTER (WHERE s.snapshot_at IS NULL OR m.ts <= s.snapshot_at) AS ledger_sum,
           count(*) FILTER (WHERE s.snapshot_at IS NULL OR m.ts <= s.snapshot_at) AS ledger_rows
    FROM moves m LEFT JOIN snaps s ON s.account_uid = m.account_uid AND s.wallet = m.wallet AND s.coin = m.coin
    GROUP BY m.account_uid, m.wallet, m.coin
  ), joined AS (
    SELECT COALESCE(s.account_uid, m.account_uid) AS account_uid, COALESCE(s.wallet, m.wallet) AS wallet, COALESCE(s.coin, m.coin) AS coin,
           s.balance AS exchange_balance, COALESCE(m.ledger_sum, 0::numeric) AS ledger_balance, COALESCE(m.ledger_rows, 0) AS ledger_rows
    FROM snaps s FULL JOIN sums m ON m.account_uid = s.account_uid AND m.wallet = s.wallet AND m.coin = s.coin
  )
  SELECT j.account_uid, j.wallet, j.coin,
         CASE WHEN j.exchange_balance IS NULL THEN 'no_snapshot'
              WHEN j.exchange_balance = j.ledger_balance THEN 'match'
              WHEN o.opening > 0::numeric AND (j.exchange_balance - j.ledger_balance) = o.opening THEN 'opening_balance'
              ELSE 'unexplained' END AS status
  FROM joined j
  LEFT JOIN openings se ON se.account_uid = j.account_uid AND se.wallet = j.wallet AND se.coin = j.coin
  CROSS JOIN LATERAL (SELECT CASE WHEN se.account_uid IS NULL AND j.ledger_rows = 0 AND j.exchange_balance > 0::numeric THEN j.exchange_balance
                                  ELSE se.opening END AS opening) o`;

const queries = {
  quality: `SELECT account_uid, kind, count(*)::int AS n FROM data_quality WHERE kind IN ('record', 'unclassified') GROUP BY 1, 2`,
  unpriced: `SELECT account_uid, count(*)::int AS n FROM ledger_valued('${warningFiat}') WHERE price_source = 'unpriced' GROUP BY 1`,
  recon: `SELECT account_uid, count(*) FILTER (WHERE status = 'unexplained')::int AS unexplained,
                 count(*) FILTER (WHERE status = 'opening_balance')::int AS opening
          FROM (${reconciliationStatusSql}) r WHERE status IN ('unexplained', 'opening_balance') GROUP BY 1`,
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
 * The counts as of now: the stored ones when they belong to the current bookkeeping key, else
 * computed (the four statements at once, on `read`'s pool) and stored by `write` (outside any
 * read-only transaction `read` may use) under the key they were counted at, so that only the
 * first reader after an import or a correction waits for them. They are stored only while that
 * key is still the current one when the counts are in: a change that committed meanwhile gives
 * another key, and those counts may not reflect it. A reader that may not write (a read-only
 * role, a standby) still gets the counts; storing them is a cache.
 *
 * @example
 * const run = (t: string, v?: unknown[]) => pool.query(t, v).then((r) => r.rows);
 * const counts = await currentHealthCounts(run, run);
 */
export async function currentHealthCounts(read: RunQuery, write: RunQuery): Promise<Record<string, HealthCounts>> {
  const [now] = await read(`SELECT k.key, (SELECT counts FROM account_health_counts c WHERE c.key = k.key) AS counts
                           FROM (SELECT account_health_key() AS key) k`);
  if (now?.counts) return now.counts as Record<string, HealthCounts>;
  const key = String(now?.key ?? '');
  const counts = await computeHealthCounts(read, true);
  try {
    await write(`WITH still AS (SELECT 1 WHERE account_health_key() = $1),
                    gone AS (DELETE FROM account_health_counts WHERE key <> $1 AND EXISTS (SELECT 1 FROM still))
               INSERT INTO account_health_counts (key, counts) SELECT $1, $2::jsonb FROM still
               ON CONFLICT (key) DO NOTHING`, [key, JSON.stringify(counts)]);
  } catch {
    // Not stored (no write permission, a read-only server): the next reader counts again.
  }
  return counts;
}

/**
 * Computes the counts and stores them under the bookkeeping key, both read in the caller's one
 * snapshot (`run` inside a REPEATABLE READ transaction), replacing the counts of older keys. Sets
 * `jit = off` for the rest of that transaction.
 *
 * @example
 * await db.transaction().setIsolationLevel('repeatable read').execute((trx) => storeHealthCounts((t, v) => trx.executeQuery(CompiledQuery.raw(t, v)).then((r) => r.rows)));
 */
export async function storeHealthCounts(run: RunQuery): Promise<void> {
  // The reconciliation counts without JIT: 7.0-10.1 -> 4.6-5.4 CPU-s at 1M records.
  await run(withoutJit);
  const key = String((await run(`SELECT account_health_key() AS key`))[0]!.key);
  const counts = await computeHealthCounts(run, false);
  await run(`DELETE FROM account_health_counts WHERE key <> $1`, [key]);
  await run(`INSERT INTO account_health_counts (key, counts) VALUES ($1, $2::jsonb)
             ON CONFLICT (key) DO UPDATE SET counts = EXCLUDED.counts, computed_at = EXCLUDED.computed_at`, [key, JSON.stringify(counts)]);
}
