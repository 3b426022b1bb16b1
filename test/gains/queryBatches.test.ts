// queryBatches (src/gains/queryBatches.ts): gains read the valued ledger in one streamed query,
// handed on a batch at a time, the socket paused while a batch is handled so memory stays at
// about one batch whatever the ledger's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { queryBatches, queryBatchesInTurn } from '../../src/gains/queryBatches.js';

let fresh: FreshDatabase;
// client reads; watcher looks at pg_stat_activity; second and third read slices beside client.
let client: pg.Client;
let watcher: pg.Client;
let second: pg.Client;
let third: pg.Client;
beforeAll(async () => {
  fresh = await freshDatabase();
  const connect = () => new pg.Client({ connectionString: fresh.url });
  [client, watcher, second, third] = [connect(), connect(), connect(), connect()];
  for (const c of [client, watcher, second, third]) await c.connect();
});
afterAll(async () => {
  for (const c of [client, watcher, second, third]) await c?.end();
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
    let started!: () => void;
    const firstBatch = new Promise<void>((resolve) => { started = resolve; });
    let batches = 0;
    // ~60 MB of rows, far beyond what the socket buffers hold.
    const reading = queryBatches(client, { text: `SELECT i, repeat('x', 100) FROM generate_series(1, 600000) i`, values: [] }, 1_000, async () => {
      batches++;
      if (batches === 1) { started(); await held; }
    });
    try {
      // Look only once the first batch is in hand: before that the backend may not have read the
      // query yet (idle, ClientRead, as CI saw on a busy machine), which says nothing about holding back.
      await firstBatch;
      // The backend blocks on its socket (wait_event ClientWrite) for as long as the first batch
      // is held: seen so in 30 polls in a row, 200 ms apart. A reader that kept reading would let
      // it finish the query (state idle) within those 6 s.
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
    } finally {
      // Whatever the outcome, let the read finish, so a failure here cannot leave the connection
      // paused and hang every later test on it.
      release();
      await reading.catch(() => {});
    }
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

// queryBatchesInTurn: gains read a large ledger in slices of time on two connections, the next
// slice computed while the last is matched. The slices' rows must reach the handler as one query's
// would: in the slices' order, whatever their sizes, the batches' timing or an empty slice.
describe('queryBatchesInTurn', () => {
  const slice = (from: number, to: number) => ({ text: 'SELECT i FROM generate_series($1::int, $2::int - 1) i ORDER BY i', values: [from, to] });

  it('hands on every slice\'s rows in the slices\' order, empty slices and slow batches included', async () => {
    const bounds = [0, 1, 7_000, 7_000, 7_001, 19_000, 19_000, 40_000, 40_003];
    const queries = bounds.slice(1).map((to, i) => slice(bounds[i]!, to));
    // On two connections (as gains reads) and on three (two slices ahead: an empty slice must
    // still wait for every slice before it).
    for (const clients of [[client, second], [client, second, third]]) {
      const seen: number[] = [];
      let calls = 0;
      await queryBatchesInTurn(clients, queries, 1_000, async (rows) => {
        // Every other batch is slow, so the other connections' slices are ready long before their turn.
        if (calls++ % 2 === 0) await new Promise((r) => setTimeout(r, 5));
        for (const r of rows) seen.push(Number(r[0]));
      });
      expect(seen.length).toBe(40_003);
      expect(seen.every((v, i) => v === i), `${clients.length} clients`).toBe(true);
    }
    await stillUsable();
  });

  it('a failing slice stops the rest: the rows before it are handed on, none after, and its error is the one thrown', async () => {
    const queries = [slice(0, 3_000), { text: 'SELECT 1 / (i - i) FROM generate_series(1, 10) i', values: [] }, slice(3_000, 6_000), slice(6_000, 9_000), slice(9_000, 12_000)];
    const seen: number[] = [];
    const err = await queryBatchesInTurn([client, second], queries, 500, async (rows) => { for (const r of rows) seen.push(Number(r[0])); }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/division by zero/);
    expect(seen).toEqual(Array.from({ length: 3_000 }, (_, i) => i));
    await stillUsable();
    expect((await second.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('what the handler throws is what the read throws, and no later slice is handled', async () => {
    const queries = [slice(0, 2_000), slice(2_000, 4_000), slice(4_000, 6_000)];
    let batches = 0;
    const err = await queryBatchesInTurn([client, second], queries, 500, async () => {
      if (++batches === 5) throw new Error('matching failed');
    }).catch((e: unknown) => e);
    expect(err).toEqual(new Error('matching failed'));
    expect(batches).toBe(5);
    await stillUsable();
  });
});
