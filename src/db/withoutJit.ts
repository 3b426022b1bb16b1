import type pg from 'pg';
import { poolTransaction } from './withTransaction.js';

/**
 * The statement that turns JIT off for the rest of the current transaction, for transactions
 * whose statements read whole views (ledger, data_quality, reconciliation, tax_transactions):
 * the sync's end-of-run counts, a report, `tradeledger reconcile`. Their plans cost past
 * PostgreSQL's jit_optimize_above_cost (the ledger view alone has hundreds of expressions), and
 * compiling them took 2-4 s per statement at 1M synced records, more than it saved, even for a
 * `LIMIT 0` that is planned and never run (BENCHMARKS.md, issue 24, session 12). SET LOCAL ends
 * with the transaction, so it never reaches a pooled connection's next user, and it needs no
 * startup parameter (which PgBouncer in transaction mode refuses).
 *
 * @example
 * await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
 * await client.query(withoutJit);
 */
export const withoutJit = 'SET LOCAL jit = off';

/**
 * Runs one read-only statement on a connection of `pool` with JIT off (`withoutJit`, in a
 * transaction of its own), for a pool's reads of whole views: the accounts' health that
 * `tradeledger status` and the portal read live until a sync stores it. With JIT on, the
 * disposals-without-cost count alone compiled for 4.3 s before finding no row (200,000 imported
 * lines; BENCHMARKS.md, issue 24, session 15). A connection whose transaction could not be ended
 * is closed, not handed back to the pool (poolTransaction).
 *
 * @example
 * const { rows } = await queryWithoutJit(pool, 'SELECT count(*) FROM data_quality');
 */
export async function queryWithoutJit(pool: pg.Pool, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  return poolTransaction(pool, 'BEGIN READ ONLY', async (client) => {
    await client.query(withoutJit);
    return client.query(text, values);
  });
}
