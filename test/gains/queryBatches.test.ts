// queryBatches (src/gains/queryBatches.ts): gains read the valued ledger in one streamed query,
// handed on a batch at a time, the socket paused while a batch is handled so memory stays at
// about one batch whatever the ledger's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { queryBatches } from '../../src/gains/queryBatches.js';

let fresh: FreshDatabase;
let client: pg.Client;
let watcher: pg.Client;
beforeAll(async () => {
  fresh = await freshDatabase();
  client = new pg.Client({ connectionString: fresh.url });
  watcher = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  await watcher.connect();
});
afterAll(async () => {
  await client?.end();
  await watcher?.end();
  await fresh?.drop();
});

const stillUsable = async () => expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

describe('queryBatches', () => {
  it('hands on every row in order, in batches of the size asked, each value as PostgreSQL\'s text', async () => {
    const sizes: number[] = [];
    const firsts: (string | null)[][] = [];
    await queryBatches(client, { text: `SELECT i, i::numeric / 3 AS third, NULL::text AS nothing, '0.1000000000000000000000000001'::numeric AS exact FROM generate_series(1, $1::int) i ORDER BY i`, values: [12_345] }, 5_000, async (rows) => {
      sizes.push(rows.length);
      firsts.push(rows[0]!);
    });
    expect(sizes).toEqual([5_000, 5_000, 2_345]);
    expect(firsts.map((r) => r[0])).toEqual(['1', '5001', '10001']);
    expect(firsts[0]).toEqual(['1', '0.33333333333333333333', null, '0.1000000000000000000000000001']);
    await stillUsable();
  });

  it('holds the server back while a batch is handled: the backend waits to write, it does not finish into memory', async () => {
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let batches = 0;
    // ~60 MB of rows, far beyond what the socket buffers hold.
    const reading = queryBatches(client, { text: `SELECT i, repeat('x', 100) FROM generate_series(1, 600000) i`, values: [] }, 1_000, async () => {
      batches++;
      if (batches === 1) await held;
    });
    // The backend blocks on its socket (wait_event ClientWrite) for as long as the first batch is
    // held: seen so in 30 polls in a row, 200 ms apart. A reader that kept reading would let it
    // finish the query (state idle) within those 6 s.
    let steady = 0;
    let seen: { state: string; wait_event: string | null } | undefined;
    for (let i = 0; i < 600 && steady < 30; i++) {
      seen = (await watcher.query<{ state: string; wait_event: string | null }>('SELECT state, wait_event FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0];
      if (seen?.state !== 'active') break;
      steady = seen.wait_event === 'ClientWrite' ? steady + 1 : 0;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(seen).toEqual({ state: 'active', wait_event: 'ClientWrite' });
    expect(steady).toBe(30);
    expect(batches).toBe(1);
    release();
    await reading;
    expect(batches).toBe(600);
    await stillUsable();
  });

  it('rejects with what a handler threw, after letting the query drain', async () => {
    const err = new Error('matcher failed');
    await expect(queryBatches(client, { text: 'SELECT i FROM generate_series(1, 50000) i', values: [] }, 1_000, async (rows) => {
      if (rows[0]![0] === '2001') throw err;
    })).rejects.toBe(err);
    await stillUsable();
  });

  it('rejects with the query\'s own error', async () => {
    await expect(queryBatches(client, { text: 'SELECT 1 / (i - 3000) FROM generate_series(1, 5000) i', values: [] }, 1_000, async () => undefined))
      .rejects.toThrow('division by zero');
    await stillUsable();
  });
});
