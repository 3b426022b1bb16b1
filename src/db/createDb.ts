import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { createPool } from './pools.js';

/** Options for {@link createDb}. */
export interface CreateDbOptions {
  /** What the pool is for: its sessions show as `tradeledger-<name>` in pg_stat_activity (src/db/pools.ts). */
  name: string;
  /** Most connections the pool opens; default 10. */
  maxConnections?: number;
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * A Kysely instance over a pool from {@link createPool}. `numeric` and `bigint` columns come back as strings (pg's
 * default, kept on purpose: amounts never become JS numbers). Call `db.destroy()` when done.
 *
 * @example
 * const db = createDb<Database>(url, { name: 'sync' });
 * try { await db.selectFrom('spot_orders').selectAll().execute(); } finally { await db.destroy(); }
 */
export function createDb<DB = any>(url: string, options: CreateDbOptions): Kysely<DB> {
  // The pool and each of its clients carry the error listener (see createPool): a session the
  // server ends does not crash the process; the next query on it fails and reports it.
  const pool = createPool({ url, name: options.name, max: options.maxConnections ?? 10 });
  // Every session until it has really closed: pool.end() resolves once its clients are told to
  // end, before their sockets close, and destroy() waits for those too.
  const closing = new Set<Promise<void>>();
  pool.on('connect', (client) => {
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
