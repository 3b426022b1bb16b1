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
  // A client whose session ends (a server restart: 57P01) emits 'error'; with no listener Node
  // crashes the process ("Unhandled 'error' event"). The pool listens for idle clients only, so
  // every client also gets its own listener, covering one held between queries (the sync's
  // lock, a transaction waiting on the exchange). The next query on it fails and reports it.
  pool.on('error', () => {});
  pool.on('connect', (client) => { client.on('error', () => {}); });
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
