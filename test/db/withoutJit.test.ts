// withoutJit (src/db/withoutJit.ts) turns JIT off for the rest of the transaction only: a pooled
// connection's next user, or the next transaction on the same connection, gets the server's
// setting back. queryWithoutJit runs one statement of a pool that way and hands the connection
// back as it found it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWithoutJit, withoutJit } from '../../src/db/withoutJit.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

describe('withoutJit', () => {
  it('is off inside the transaction and back to the session\'s setting after it', async () => {
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      const jit = async () => (await client.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`)).rows[0]!.jit;
      await client.query('SET jit = on');
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(withoutJit);
      expect(await jit()).toBe('off');
      await client.query('COMMIT');
      expect(await jit()).toBe('on');
    } finally {
      await client.end();
    }
  });
});

describe('queryWithoutJit', () => {
  it('runs the statement with JIT off, read-only, and hands the connection back outside any transaction', async () => {
    // One connection, so every statement below runs on the very connection queryWithoutJit used.
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1, options: '-c jit=on' });
    try {
      const settings = `SELECT current_setting('jit') AS jit, current_setting('transaction_read_only') AS ro, pg_backend_pid() AS pid`;
      const inside = (await queryWithoutJit(pool, settings)).rows[0]!;
      expect(inside.jit).toBe('off');
      expect(inside.ro).toBe('on');
      const after = (await pool.query(settings)).rows[0]!;
      expect(after).toEqual({ jit: 'on', ro: 'off', pid: inside.pid });
      // A failing statement rejects with its own error; the rollback leaves the connection usable
      // and outside the failed transaction (a connection left in it would answer 25P02 here).
      await expect(queryWithoutJit(pool, 'SELECT 1 / 0')).rejects.toThrow(/division by zero/);
      expect((await pool.query(settings)).rows[0]).toEqual({ jit: 'on', ro: 'off', pid: inside.pid });
      // A write is refused: the health reads never change the database.
      await expect(queryWithoutJit(pool, 'CREATE TABLE never_made (x int)')).rejects.toThrow(/read-only transaction/);
    } finally {
      await pool.end();
    }
  });

  it('closes a connection that died mid-statement instead of handing it back', async () => {
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1 });
    // As createPool does: a connection's own error is listened to (here: the termination, expected).
    pool.on('error', () => {});
    pool.on('connect', (client) => { client.on('error', () => {}); });
    try {
      const first = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await expect(queryWithoutJit(pool, 'SELECT pg_terminate_backend(pg_backend_pid())')).rejects.toThrow();
      const next = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      expect(next).not.toBe(first);
    } finally {
      await pool.end();
    }
  });
});
