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
  // Every session until it has really closed: pool.end() resolves once its clients are told to
  // end, before their sockets close, and destroy() waits for those too.
  const closing = new Set<Promise<void>>();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    const closed: Promise<void> = new Promise((resolve) => client.once('end', () => { closing.delete(closed); resolve(); }));
    closing.add(closed);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // Kysely ends the pool only when it ran a query itself: a caller that used only poolOf(db)
  // (withTransaction, COPY) would leave an idle connection and its 10 s idle timer behind, and
  // the command would stay alive that long after its work was done. destroy() always ends it,
  // and returns when every connection is closed.
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await destroy();
    if (!pool.ending && !pool.ended) await pool.end();
    // Bounded: a socket the network lost may never report its end; the process must still exit.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...closing]), new Promise((resolve) => { timer = setTimeout(resolve, 5_000).unref(); })]);
    clearTimeout(timer);
  };
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
