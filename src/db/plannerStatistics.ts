import { sqlIdentifier } from './sqlText.js';
import type { RunQuery } from './accountHealthCounts.js';

/**
 * Planner statistics for tables a sync just filled. Where autovacuum is off (as on the service
 * this project is measured on), or has not come by yet, a freshly loaded table has none: the
 * planner then guesses a few hundred rows and a couple of hundred distinct values per column,
 * and plans the whole-ledger reads at a sync's end (the accounts page's counts, `ledger_valued`)
 * as nested loops of one lookup per row, without the Memoize it would choose for a column of a
 * dozen symbols. Measured at 1M records (issue 24 item 2): `ledger_valued('USD')`'s unpriced count
 * 4.9 -> 2.5 CPU-s after this refresh, which costs 0.5 CPU-s.
 */

/**
 * The sample size the refresh uses: ten times smaller than PostgreSQL's default of 100 (3,000
 * rows per table instead of 30,000). At the default the jsonb `raw` columns make ANALYZE cost 6
 * CPU-s at 1M records, more than it saves; at 10 it costs 0.5 CPU-s and gives the same plans for
 * the sync's own reads (row counts, the few distinct symbols and coins). Autovacuum, where it
 * runs, later replaces these statistics with its own.
 */
export const refreshStatisticsTarget = 10;

/**
 * The tables of the current schema that autovacuum would analyze now (changed rows above
 * `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor * rows`), or that hold data and
 * were never analyzed, a first sync's tables (whose change counters another backend may not have
 * reported yet).
 *
 * @example
 * const due = await tablesDueForAnalyze((t, v) => pool.query(t, v).then((r) => r.rows)); // ['deposits', 'fees', ...]
 */
export async function tablesDueForAnalyze(run: RunQuery): Promise<string[]> {
  const rows = await run(`
    SELECT s.relname::text AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = current_schema()
      AND ((c.reltuples < 0 AND pg_relation_size(s.relid) > 0)
        OR s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
             + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0))
    ORDER BY 1`);
  return rows.map((r) => String(r.name));
}

/**
 * ANALYZEs the tables {@link tablesDueForAnalyze} names, at {@link refreshStatisticsTarget}, in
 * one transaction of `run` (the caller's: `run` must be one connection). Gives the tables analyzed.
 *
 * @example
 * await db.transaction().execute((trx) => refreshPlannerStatistics((t, v) => trx.executeQuery(CompiledQuery.raw(t, v ?? [])).then((r) => r.rows)));
 */
export async function refreshPlannerStatistics(run: RunQuery): Promise<string[]> {
  const tables = await tablesDueForAnalyze(run);
  if (tables.length > 0) await analyzeAtRefreshTarget(run, tables);
  return tables;
}

/**
 * ANALYZEs the tables named at {@link refreshStatisticsTarget}, inside the caller's transaction
 * (`run` must be one connection: the setting is SET LOCAL). The sync's refresh and a large
 * import (imported_transactions) both take this sample.
 *
 * @example
 * await db.transaction().execute((trx) => analyzeAtRefreshTarget((t) => sql.raw(t).execute(trx).then((r) => r.rows as Record<string, unknown>[]), ['imported_transactions']));
 */
export async function analyzeAtRefreshTarget(run: RunQuery, tables: readonly string[]): Promise<void> {
  await run(`SET LOCAL default_statistics_target = ${refreshStatisticsTarget}`);
  await run(`ANALYZE ${tables.map(sqlIdentifier).join(', ')}`);
}
