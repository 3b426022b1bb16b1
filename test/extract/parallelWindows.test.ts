import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { diffAgainstTruth } from './groundTruth.js';
import { sandboxUids, testSyncOptions } from './testSync.js';

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

describe('parallel windows (sync.parallelWindows)', () => {
  it('walk a long plan several windows at once and load exactly what one window at a time loads', async () => {
    const serialEvents: SyncEvent[] = [];
    const parallelEvents: SyncEvent[] = [];
    const a = await runSync(testSyncOptions(sandbox, serial.db, serialEvents, { parallelWindows: 1 }));
    const b = await runSync(testSyncOptions(sandbox, parallel.db, parallelEvents, { parallelWindows: 4 }));
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
  });
});
