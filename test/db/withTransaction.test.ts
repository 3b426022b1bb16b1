import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/withTransaction.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

describe('withTransaction', () => {
  let fresh: FreshDatabase;
  const names = async () => (await sql<{ name: string }>`SELECT name FROM notes ORDER BY name`.execute(fresh.db)).rows.map((r) => r.name);

  beforeAll(async () => {
    fresh = await freshDatabase();
    await sql`CREATE TABLE notes (name text PRIMARY KEY)`.execute(fresh.db);
  });
  afterAll(async () => { await fresh?.drop(); });

  it('runs Kysely and the raw client on one connection and commits both', async () => {
    const pids = await withTransaction(fresh.db, async (tx) => {
      await tx.db.insertInto('notes').values({ name: 'via kysely' }).execute();
      await tx.client.query(`INSERT INTO notes VALUES ('via client')`);
      // Each side sees the other's uncommitted row: the same session.
      const seen = await tx.db.selectFrom('notes').select('name').execute();
      expect(seen).toHaveLength(2);
      const a = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx.db);
      const b = await tx.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return [a.rows[0]?.pid, b.rows[0]?.pid];
    });
    expect(pids[0]).toBe(pids[1]);
    expect(await names()).toEqual(['via client', 'via kysely']);
  });

  it('rolls both back when the callback throws, and passes the error on', async () => {
    const run = withTransaction(fresh.db, async (tx) => {
      await tx.db.insertInto('notes').values({ name: 'lost 1' }).execute();
      await tx.client.query(`INSERT INTO notes VALUES ('lost 2')`);
      throw new Error('stop here');
    });
    await expect(run).rejects.toThrow('stop here');
    expect(await names()).toEqual(['via client', 'via kysely']);
  });

  it('returns the connection to the pool in a clean state after a failed statement', async () => {
    await expect(withTransaction(fresh.db, (tx) => tx.client.query('SELECT * FROM no_such_table'))).rejects.toThrow(/no_such_table/);
    const status = await withTransaction(fresh.db, async (tx) => (await tx.client.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows[0]?.n);
    expect(status).toBe(2);
  });
});
