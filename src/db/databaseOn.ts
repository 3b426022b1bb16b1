import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './databaseTypes.js';

const made = new WeakMap<object, Kysely<Database>>();

/**
 * The typed query builder ({@link Database}) over a pool or a client someone else made and ends
 * (a pool from createPool, a transaction's client): for the code that is handed a pg pool or
 * client and reads or writes the app's own tables. On a pool each query takes a connection and
 * gives it back; on a client every query runs on that one session, so inside a transaction the
 * builder's statements commit or roll back with the client's. One instance per pool or client;
 * never `destroy()` it (that would end the caller's pool).
 *
 * @example
 * const db = databaseOn(pool);
 * await db.deleteFrom('portal_login_failures').where('id', '=', attemptId).execute();
 */
export function databaseOn(on: pg.Pool | pg.ClientBase): Kysely<Database> {
  let db = made.get(on);
  if (db === undefined) {
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: isPool(on) ? on : pinned(on) }) });
    made.set(on, db);
  }
  return db;
}

function isPool(on: pg.Pool | pg.ClientBase): on is pg.Pool {
  return typeof (on as pg.Pool).totalCount === 'number';
}

// Kysely asks its pool for a connection per query: this one always hands out the one client and
// never releases or ends it (its owner does).
function pinned(client: pg.ClientBase): pg.Pool {
  const connection = { query: (text: string, values: unknown[]) => client.query(text, values), release: () => {} };
  return { connect: async () => connection, end: async () => {} } as unknown as pg.Pool;
}
