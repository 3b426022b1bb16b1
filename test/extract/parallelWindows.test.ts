import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import { planSync } from '../../src/extract/planSync.js';
import { createParallelWindows } from '../../src/extract/syncState.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { expectWindowsAddUp, sandboxUids, testSyncOptions } from '../support/testSync.js';

let sandbox: RunningSandbox;
let serial: FreshDatabase;
let parallel: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  [serial, parallel] = await Promise.all([freshDatabase(), freshDatabase()]);
});
afterAll(async () => {
  await sandbox?.close();
  await Promise.all([serial?.drop(), parallel?.drop()]);
});

// The window numbers of each partition's page events, in the order the pages were loaded.
function windowOrder(events: SyncEvent[]): Map<string, number[]> {
  const order = new Map<string, number[]>();
  for (const e of events) {
    if (e.type !== 'page') continue;
    const k = `${e.account}/${e.stream}/${e.partition}`;
    order.set(k, [...(order.get(k) ?? []), e.window]);
  }
  return order;
}

// Each test runs one or two whole syncs and compares them with the ground truth: CPU-bound work
// that takes 10-20 s on a quiet machine and several times that beside other work, hence the timeouts.
describe('parallel windows (sync.parallelWindows)', () => {
  it('walk a long plan several windows at once and load exactly what one window at a time loads', async () => {
    const serialEvents: SyncEvent[] = [];
    const parallelEvents: SyncEvent[] = [];
    const a = await runSync(testSyncOptions(sandbox, serial.db, serialEvents, { sync: { parallelWindows: 1 } }));
    const b = await runSync(testSyncOptions(sandbox, parallel.db, parallelEvents, { sync: { parallelWindows: 4 } }));
    expect([a.status, b.status]).toEqual(['ok', 'ok']);
    for (const db of [serial.db, parallel.db]) {
      const { differences, compared } = await diffAgainstTruth(sandbox, db, sandboxUids(sandbox));
      expect(differences.slice(0, 5)).toEqual([]);
      expect(compared).toBeGreaterThan(1000);
    }
    // One window at a time: each partition's pages arrive in window order. Parallel: some
    // partition's pages interleave windows.
    const inOrder = (w: number[]) => w.every((x, i) => i === 0 || x >= w[i - 1]!);
    expect([...windowOrder(serialEvents).values()].every(inOrder)).toBe(true);
    expect([...windowOrder(parallelEvents).values()].some((w) => !inOrder(w))).toBe(true);
    expectWindowsAddUp(serialEvents);
    expectWindowsAddUp(parallelEvents);
    // Both leave a watermark on the same partitions (its value is the run's own now - lag) and no
    // window rows behind.
    const state = (db: typeof serial.db) => sql<{ k: string; w: Date }>`
      SELECT account_uid || '/' || stream || '/' || partition AS k, watermark AS w FROM sync_state ORDER BY 1`.execute(db);
    const [sa, sb] = await Promise.all([state(serial.db), state(parallel.db)]);
    expect(sb.rows.map((r) => r.k)).toEqual(sa.rows.map((r) => r.k));
    expect(sb.rows.filter((r) => r.w === null).map((r) => r.k)).toEqual(sa.rows.filter((r) => r.w === null).map((r) => r.k));
    for (const db of [serial.db, parallel.db]) {
      expect((await sql<{ n: string }>`SELECT count(*)::text AS n FROM sync_windows`.execute(db)).rows[0]!.n).toBe('0');
    }
    // Requests: parallel windows cost at most one extra request per partition (a long window
    // whose first page is full is cut up and walked again).
    const requests = (r: typeof a) => Object.entries(r.counts).filter(([k]) => historyStreams.some((s) => k.split('/')[1] === s.name)).reduce((n, [, c]) => n + c.requests, 0);
    const partitions = Object.keys(b.counts).length;
    expect(requests(b)).toBeGreaterThanOrEqual(requests(a));
    expect(requests(b) - requests(a)).toBeLessThanOrEqual(partitions);
  }, 240_000);

  it('cut a long window into parallel windows once its first page comes back full', async () => {
    // Spot orders dense enough that the 90-day window holds several pages.
    const dense = await startTestSandbox({ scale: 'tiny,spotOrders=3000' });
    const [one, four] = await Promise.all([freshDatabase(), freshDatabase()]);
    try {
      const uid = sandboxUids(dense)[0]!;
      const only = { accounts: testSyncOptions(dense, one.db).accounts.slice(0, 1) };
      const oneEvents: SyncEvent[] = [];
      const fourEvents: SyncEvent[] = [];
      const a = await runSync(testSyncOptions(dense, one.db, oneEvents, { ...only, sync: { streams: ['spotOrders'], parallelWindows: 1 } }));
      const b = await runSync(testSyncOptions(dense, four.db, fourEvents, { ...only, sync: { streams: ['spotOrders'], parallelWindows: 4 } }));
      expect([a.status, b.status]).toEqual(['ok', 'ok']);
      expect(fourEvents.some((e) => e.type === 'windows-added'), 'the window was cut up').toBe(true);
      expect(oneEvents.some((e) => e.type === 'windows-added')).toBe(false);
      expectWindowsAddUp(fourEvents);
      for (const db of [one.db, four.db]) {
        const { differences } = await diffAgainstTruth(dense, db, [uid]);
        expect(differences.filter((d) => d.startsWith('spotOrders')).slice(0, 5)).toEqual([]);
      }
      const rows = async (db: typeof one.db) => (await sql<{ n: string }>`SELECT count(*)::text AS n FROM spot_orders`.execute(db)).rows[0]!.n;
      expect(Number(await rows(four.db))).toBeGreaterThan(300);
      expect(await rows(four.db)).toBe(await rows(one.db));
      // The price: the first page, read again in parallel.
      const requests = (r: typeof a) => Object.entries(r.counts).filter(([k]) => k.split('/')[1] === 'spotOrders').reduce((n, [, c]) => n + c.requests, 0);
      expect(requests(b) - requests(a)).toBeGreaterThanOrEqual(1);
      expect(requests(b) - requests(a)).toBeLessThanOrEqual(4);
    } finally {
      await dense.close();
      await Promise.all([one.drop(), four.drop()]);
    }
  }, 180_000);

  it('finish the windows a killed run left, recording as a gap what the horizon now hides', async () => {
    const dense = await startTestSandbox({ scale: 'tiny,spotOrders=3000' });
    const db = await freshDatabase();
    try {
      const sandbox = dense;
      const uid = sandboxUids(sandbox)[0]!;
      const now = sandbox.world.now();
      const key = { account: uid, stream: 'spotOrders', partition: 'all' };
      // As a run killed days ago would leave them: two windows of X1 (90-day horizon) owed, the
      // older one reaching 10 days behind today's horizon, the newer one already done.
      const older = { start: now - 100 * DAY_MS, end: now - 45 * DAY_MS };
      const newer = { start: now - 45 * DAY_MS, end: now - DAY_MS };
      // The killed run began its history at the older window's start (--since), and recorded so.
      await sql`INSERT INTO sync_state (account_uid, stream, partition, status, history_from)
        VALUES (${uid}, 'spotOrders', 'all', 'running', ${new Date(older.start).toISOString()}::timestamptz)`.execute(db.db);
      await createParallelWindows(db.db, key, [older, newer], '0');
      await sql`UPDATE sync_windows SET done = true WHERE window_start = ${new Date(newer.start).toISOString()}::timestamptz`.execute(db.db);
      const events: SyncEvent[] = [];
      const only = { sync: { streams: ['spotOrders'], since: older.start }, accounts: testSyncOptions(sandbox, db.db).accounts.slice(0, 1) };
      // --dry-run counts the window owed first, from its start.
      const dry = await planSync(testSyncOptions(sandbox, db.db, [], only));
      const line = dry.lines.find((l) => l.stream === 'spotOrders')!;
      expect(line.from).toBe(new Date(older.start).toISOString());
      expect(line.windows).toBeGreaterThanOrEqual(2);
      const r = await runSync(testSyncOptions(sandbox, db.db, events, only));
      expect(r.status).toBe('ok');
      expect((await sql<{ n: string }>`SELECT count(*)::text AS n FROM sync_windows`.execute(db.db)).rows[0]!.n).toBe('0');
      // The part of the older window past the horizon is a gap starting at that window's start.
      const gaps = (await sql<{ from: Date; to: Date }>`SELECT gap_from AS from, gap_to AS to FROM history_gaps WHERE stream = 'spotOrders' ORDER BY gap_from`.execute(db.db)).rows;
      expect(gaps[0]!.from.getTime()).toBe(older.start);
      expect(gaps[0]!.to.getTime()).toBeGreaterThan(now - 91 * DAY_MS);
      expect(gaps[0]!.to.getTime()).toBeLessThan(now - 89 * DAY_MS);
      // The readable part of the older window was read; the newer one, marked done by the killed
      // run, was not read again; the plan then went on from the windows' end.
      const stored = (await sql<{ t: Date }>`SELECT c_time AS t FROM spot_orders`.execute(db.db)).rows.map((x) => x.t.getTime());
      expect(stored.some((t) => t >= now - 90 * DAY_MS && t < older.end)).toBe(true);
      expect(stored.some((t) => t >= newer.end)).toBe(true);
      // Against the ground truth, what is missing is exactly the done window's records that the
      // 7-day look-back after it did not re-read (the killed run had loaded them; this test did not).
      const reread = newer.end - 7 * DAY_MS;
      const missing = stored.filter((t) => t >= newer.start && t < reread);
      expect(missing).toEqual([]);
      const { differences } = await diffAgainstTruth(sandbox, db.db, [uid]);
      const spot = differences.filter((d) => d.startsWith('spotOrders'));
      expect(spot.length, 'the sandbox has orders in the done window').toBeGreaterThan(0);
      expect(spot.every((d) => d.endsWith(': missing'))).toBe(true);
      const state = (await sql<{ w: Date }>`SELECT watermark AS w FROM sync_state WHERE account_uid = ${uid} AND stream = 'spotOrders'`.execute(db.db)).rows[0]!;
      expect(state.w.getTime()).toBeGreaterThanOrEqual(newer.end);
    } finally {
      await db.drop();
    }
  }, 180_000);
});
