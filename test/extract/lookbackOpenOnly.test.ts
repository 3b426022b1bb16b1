import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { control, startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { testSyncOptions, sandboxUids } from '../support/testSync.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { runSync } from '../../src/extract/runSync.js';
import { lookbackStart } from '../../src/extract/lookbackStart.js';
import { spotOrders } from '../../src/extract/streams/spotOrders.js';
import { deposits } from '../../src/extract/streams/deposits.js';
import { crossMarginOrders } from '../../src/extract/streams/crossMarginOrders.js';
import { single } from '../../src/extract/partitions.js';
import { DAY_MS } from '../../src/api/endpoints.js';

// Issue 24 item 3: a nightly run re-reads only what can still change. Spot orders (X1) used to be
// re-read for the whole 7-day look-back every run (143 pages at 1M records for 18 of new data);
// only orders still live can change, and each can be asked for by id (E15), so the look-back now
// starts where re-reading costs least (src/extract/lookbackStart.ts).

describe('where a spot-order look-back starts (lookbackStart)', () => {
  let fresh: FreshDatabase;
  const wm = Date.parse('2026-06-30T00:00:00Z');
  beforeAll(async () => { fresh = await freshDatabase(); });
  afterAll(async () => { await fresh?.drop(); });

  /** n orders of account U between daysBack and the watermark, evenly; `live` of them (the oldest) still live. */
  const orders = async (prefix: string, n: number, daysBack: number, live = 0) => {
    await sql`INSERT INTO spot_orders (account_uid, order_id, status, c_time, raw)
      SELECT 'U', ${prefix} || i, CASE WHEN i < ${live} THEN 'live' ELSE 'filled' END,
             to_timestamp((${wm} - ${daysBack * DAY_MS}::bigint + i * (${daysBack * DAY_MS}::bigint / ${n})) / 1000.0), '{}'
      FROM generate_series(0, ${n - 1}) i`.execute(fresh.db);
  };
  const start = () => lookbackStart(fresh.db, spotOrders, 'U', single[0]!, wm, { lookbackDays: 7 });

  it('with nothing open: the watermark (only new history is read)', async () => {
    await orders('a', 450, 6);
    expect(await start()).toBe(wm);
  });

  it('one live order inside the look-back: asked for by id (1 request) rather than re-walking 5 pages', async () => {
    await orders('b', 1, 5, 1);
    expect(await start()).toBe(wm);
  });

  it('many live orders: the walk from the oldest live order is cheaper than a lookup each', async () => {
    await sql`DELETE FROM spot_orders`.execute(fresh.db);
    await orders('c', 300, 3, 40); // 300 orders over 3 days, the oldest 40 live: 3 pages against 40 lookups
    const got = await start();
    const oldest = (await sql<{ t: Date }>`SELECT min(c_time) AS t FROM spot_orders WHERE status = 'live'`.execute(fresh.db)).rows[0]!.t.getTime();
    expect(got).toBe(oldest);
  });

  it('per partition: a live order of one symbol moves only that symbol\'s start (E13 partitions by symbol)', async () => {
    await sql`INSERT INTO cross_margin_orders (account_uid, order_id, symbol, status, c_time, raw)
      SELECT 'U', 'x' || i, CASE WHEN i % 2 = 0 THEN 'BTCUSDT' ELSE 'ETHUSDT' END, CASE WHEN i < 40 AND i % 2 = 1 THEN 'live' ELSE 'filled' END,
             to_timestamp((${wm} - ${3 * DAY_MS}::bigint + i * ${Math.floor((3 * DAY_MS) / 600)}::bigint) / 1000.0), '{}'
      FROM generate_series(0, 599) i`.execute(fresh.db);
    const part = (symbol: string) => ({ key: symbol, params: { symbol }, columns: {} });
    expect(await lookbackStart(fresh.db, crossMarginOrders, 'U', part('BTCUSDT'), wm, { lookbackDays: 7 })).toBe(wm);
    const eth = await lookbackStart(fresh.db, crossMarginOrders, 'U', part('ETHUSDT'), wm, { lookbackDays: 7 });
    const oldest = (await sql<{ t: Date }>`SELECT min(c_time) AS t FROM cross_margin_orders WHERE symbol = 'ETHUSDT' AND status = 'live'`.execute(fresh.db)).rows[0]!.t.getTime();
    expect(eth).toBe(oldest); // 20 live ETH orders: 3 pages from the oldest beat 20 lookups
  });

  it('leaves streams that do not declare it (deposits appear late, by chain time) to the whole look-back', async () => {
    expect(await lookbackStart(fresh.db, deposits, 'U', single[0]!, wm, { lookbackDays: 7 })).toBeUndefined();
    expect(await lookbackStart(fresh.db, spotOrders, 'U', single[0]!, undefined, { lookbackDays: 7 })).toBeUndefined();
  });
});

describe('a later sync of spot orders against the sandbox', () => {
  let sandbox: RunningSandbox;
  let fresh: FreshDatabase;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await sandbox?.close();
    await fresh?.drop();
  });
  const sync = () => runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { streams: ['spotOrders'] } }));

  it('still records an order that was live at the last run and has filled since, inside and outside the look-back', async () => {
    const first = await sync();
    expect(first.errors).toEqual([]);
    const { rows: open } = await sql<{ account_uid: string; record_id: string; since: Date }>`
      SELECT account_uid, record_id, since FROM open_records WHERE stream = 'spotOrders' ORDER BY since DESC`.execute(fresh.db);
    const now = sandbox.world.now();
    const recent = open.find((r) => r.since.getTime() > now - 6 * DAY_MS);
    const old = open.find((r) => r.since.getTime() < now - 8 * DAY_MS);
    expect(recent, 'the world has a live spot order inside the look-back').toBeDefined();
    expect(old, 'and one older than it').toBeDefined();
    for (const r of [recent!, old!]) {
      const got = await control(sandbox, 'settle', { uid: r.account_uid, resource: 'spotOrders', id: r.record_id });
      expect(got.settled).toBe(true);
    }
    const second = await sync();
    expect(second.errors).toEqual([]);
    const still = await sql<{ record_id: string }>`SELECT record_id FROM open_records WHERE stream = 'spotOrders' AND record_id IN (${recent!.record_id}, ${old!.record_id})`.execute(fresh.db);
    expect(still.rows).toEqual([]);
    // Every order stored exactly as the exchange has it now: nothing a cheaper look-back missed.
    const diff = await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox), ['spotOrders']);
    expect(diff.differences).toEqual([]);
    expect(diff.compared).toBeGreaterThan(0);
  });
});
