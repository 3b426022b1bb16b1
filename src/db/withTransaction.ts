import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { poolOf } from './createDb.js';

/**
 * One open transaction, seen two ways: as Kysely for ordinary queries and as the raw pg client
 * for statements Kysely does not build (COPY, batch upserts). Both run on the same connection, so everything done
 * through either commits or rolls back together.
 */
export interface Tx<DB = any> {
  db: Kysely<DB>;
  client: pg.PoolClient;
}

/**
 * Runs `fn` inside one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK
 * when it throws. A page's rows and its checkpoint belong in one such call.
 *
 * @example
 * await withTransaction(db, async (tx) => {
 *   await tx.client.query('INSERT INTO spot_orders (order_id, raw) VALUES ($1, $2)', [id, raw]);
 *   await tx.db.updateTable('sync_state').set({ cursor }).where('stream', '=', s).execute();
 * });
 */
export async function withTransaction<DB, T>(db: Kysely<DB>, fn: (tx: Tx<DB>) => Promise<T>): Promise<T> {
  return poolTransaction(poolOf(db), 'BEGIN', (client) => fn({ db: kyselyOnClient<DB>(client), client }));
}

/**
 * Runs `fn` on one connection of `pool` inside a transaction opened by `begin` ('BEGIN',
 * 'BEGIN READ ONLY', ...): COMMIT when it resolves, ROLLBACK when it throws. A connection whose
 * rollback failed is closed, never handed back to the pool inside a transaction.
 *
 * @example
 * const n = await poolTransaction(pool, 'BEGIN READ ONLY', async (client) => (await client.query('SELECT 1 AS n')).rows[0].n);
 */
export async function poolTransaction<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection itself failed; do not hand it back to the pool
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

function kyselyOnClient<DB>(client: pg.PoolClient): Kysely<DB> {
  // Kysely asks its pool for a connection per query; this pool always hands out the one
  // client that holds the transaction and never really releases or ends it.
  const pinned = {
    query: (text: string, values: unknown[]) => client.query(text, values),
    release: () => {},
  };
  const pool = { connect: async () => pinned, end: async () => {} };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as never }) });
}
