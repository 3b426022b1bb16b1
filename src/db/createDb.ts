import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';

/** Options for {@link createDb}. */
export interface CreateDbOptions {
  /** Most connections the pool opens; default 10. */
  maxConnections?: number;
  /** Name shown in pg_stat_activity, to tell tradeledger's sessions apart. */
  applicationName?: string;
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * A Kysely instance over a pg pool. `numeric` and `bigint` columns come back as strings (pg's
 * default, kept on purpose: amounts never become JS numbers). Call `db.destroy()` when done.
 *
 * @example
 * const db = createDb<Tables>(url);
 * try { await db.selectFrom('spot_orders').selectAll().execute(); } finally { await db.destroy(); }
 */
export function createDb<DB = any>(url: string, options: CreateDbOptions = {}): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'tradeledger',
  });
  // An idle client dies when the server restarts; without a listener pg would crash the process.
  // The next query reports the problem properly.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a Kysely instance made by {@link createDb}, for what Kysely cannot do
 * (COPY, one raw client per transaction).
 *
 * @example
 * const client = await poolOf(db).connect();
 */
export function poolOf(db: Kysely<any>): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('poolOf: this Kysely instance was not made by createDb()');
  return pool;
}
