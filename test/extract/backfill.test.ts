import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { expectWindowsAddUp, sandboxUids, testSyncOptions } from '../support/testSync.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { runSync } from '../../src/extract/runSync.js';
import { planSync } from '../../src/extract/planSync.js';
import { createBackfillWindows } from '../../src/extract/syncState.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';

// A later sync with an earlier --since reads the history before where the first sync began (a
// backfill). Before, --since applied to a first sync only: the earlier history was never read and
// nothing said so, while status named "run the first sync with --since" as the fix for it.

let sandbox: RunningSandbox;
let late: FreshDatabase;
let once: FreshDatabase;
let killed: FreshDatabase;
let byDefault: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  [late, once, killed, byDefault] = await Promise.all([freshDatabase(), freshDatabase(), freshDatabase(), freshDatabase()]);
});
afterAll(async () => {
  await sandbox?.close();
  await Promise.all([late?.drop(), once?.drop(), killed?.drop(), byDefault?.drop()]);
});

// Of the history streams (not the candles, whose hour still running is read again each run).
const history = (r: Awaited<ReturnType<typeof runSync>>) => Object.entries(r.counts).filter(([k]) => historyStreams.some((s) => k.split('/')[1] === s.name)).map(([, c]) => c);
const requests = (r: Awaited<ReturnType<typeof runSync>>) => history(r).reduce((n, c) => n + c.requests, 0);
const inserted = (r: Awaited<ReturnType<typeof runSync>>) => history(r).reduce((n, c) => n + c.inserted, 0);

// What a tax figure reads of a database: its ledger rows and their values. Not the value of a row
// in the hour still running: its candle is stored as it stands when read (close = the price then).
async function ledgerOf(db: FreshDatabase['db']): Promise<string[]> {
  const { rows } = await sql<{ r: string }>`
    SELECT concat_ws('|', account_uid, wallet, coin, ts, amount, kind, source, source_id, leg, price_source,
                     CASE WHEN price_time IS NULL OR price_time < ${new Date(sandbox.world.now() - 3_600_000).toISOString()}::timestamptz THEN value END) AS r
    FROM ledger_valued('USD') ORDER BY 1`.execute(db);
  return rows.map((x) => x.r);
}

describe('a later sync with an earlier --since', () => {
  it('reads the history before the first start, and leaves the database as a first sync from that date would', async () => {
    const now = sandbox.world.now();
    // Past the orders' 90-day horizon: the first sync records a gap there too.
    const recent = now - 120 * DAY_MS;
    // Before the sandbox's first record: a first sync from here reads all of it.
    const early = now - 731 * DAY_MS;
    const uids = sandboxUids(sandbox);

    const first = await runSync(testSyncOptions(sandbox, late.db, [], { sync: { since: recent } }));
    expect(first.errors).toEqual([]);
    // Holdings from before the first sync's start are opening balances, and reconcile says how
    // to read their history.
    const openings = (await sql<{ explanation: string }>`SELECT explanation FROM reconciliation WHERE status = 'opening_balance'`.execute(late.db)).rows;
    expect(openings.length).toBeGreaterThan(5);
    for (const o of openings) expect(o.explanation).toContain('tradeledger sync --since an earlier date reads it');
    expect((await diffAgainstTruth(sandbox, late.db, uids, undefined, recent)).differences).toEqual([]);
    // Each partition's start is recorded as asked (before the horizon's clamp).
    const starts = await sql<{ n: number; wrong: number }>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE history_from IS DISTINCT FROM ${new Date(recent).toISOString()}::timestamptz)::int AS wrong
      FROM sync_state WHERE stream <> 'planOrders' AND watermark IS NOT NULL`.execute(late.db);
    expect(starts.rows[0]!.n).toBeGreaterThan(10);
    expect(starts.rows[0]!.wrong).toBe(0);

    // The truth holds history between the two dates, so the backfill has something to find (some
    // of it older than an endpoint's horizon, which the backfill then records as a gap).
    const before = (await diffAgainstTruth(sandbox, late.db, uids, undefined, early)).differences.filter((d) => d.endsWith(': missing'));
    expect(before.length).toBeGreaterThan(50);

    // The dry run shows it.
    const plan = await planSync(testSyncOptions(sandbox, late.db, [], { sync: { since: early } }));
    const planned = plan.lines.filter((l) => l.backfill);
    expect(planned.length).toBeGreaterThan(10);
    // From --since, or the horizon where an endpoint serves less; to where the first sync began.
    expect(planned.filter((l) => l.backfill!.to !== new Date(recent).toISOString())).toEqual([]);
    expect(planned.filter((l) => l.backfill!.from !== new Date(early).toISOString()).map((l) => l.stream).sort()).toEqual(
      planned.filter((l) => historyStreams.find((s) => s.name === l.stream)!.horizonDays !== undefined).map((l) => l.stream).sort());

    const events: SyncEvent[] = [];
    const second = await runSync(testSyncOptions(sandbox, late.db, events, { sync: { since: early } }));
    expect(second.errors).toEqual([]);
    expect(second.status).toBe('ok');
    expect(inserted(second)).toBeGreaterThan(50);
    expect(events.filter((e) => e.type === 'backfill').length).toBe(planned.length);
    expectWindowsAddUp(events);
    expect((await diffAgainstTruth(sandbox, late.db, uids, undefined, early)).differences).toEqual([]);
    // The orders' gap before the horizon is one span from --since, not the backfill's beside the first sync's.
    const orderGaps = (await sql<{ partition: string; from: Date }>`
      SELECT concat_ws('/', account_uid, stream, partition) AS partition, gap_from AS from FROM history_gaps WHERE stream IN ('spotOrders', 'futuresOrders') ORDER BY 1`.execute(late.db)).rows;
    expect(orderGaps.length).toBeGreaterThan(0);
    expect(new Set(orderGaps.map((g) => g.partition)).size).toBe(orderGaps.length);
    expect(orderGaps.filter((g) => g.from.getTime() !== early)).toEqual([]);

    // The same database as one first sync from the earlier date: the same records, ledger and values.
    const direct = await runSync(testSyncOptions(sandbox, once.db, [], { sync: { since: early } }));
    expect(direct.errors).toEqual([]);
    expect(await ledgerOf(late.db)).toEqual(await ledgerOf(once.db));
    const candles = async (db: FreshDatabase['db']) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM price_candles`.execute(db)).rows[0]!.n;
    expect(await candles(late.db)).toBe(await candles(once.db));
    // The books tie out as the direct sync's do: the opening balances were that history.
    const balances = async (db: FreshDatabase['db']) => (await sql<{ r: string }>`
      SELECT concat_ws('|', account_uid, wallet, coin, status, difference) AS r FROM reconciliation ORDER BY 1`.execute(db)).rows.map((x) => x.r);
    expect(await balances(late.db)).toEqual(await balances(once.db));
    expect((await balances(late.db)).filter((b) => b.includes('|opening_balance|')).length).toBeLessThan(openings.length);
    const unpriced = async (db: FreshDatabase['db']) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_valued('USD') WHERE value IS NULL`.execute(db)).rows[0]!.n;
    expect(await unpriced(late.db)).toBe(await unpriced(once.db));

    // Asked again, nothing is read twice: the start moved back with the backfill.
    const third = await runSync(testSyncOptions(sandbox, late.db, events, { sync: { since: early } }));
    const fourth = await runSync(testSyncOptions(sandbox, once.db, [], { sync: { since: early } }));
    expect(events.filter((e) => e.type === 'backfill').length).toBe(planned.length);
    expect(inserted(third)).toBe(0);
    expect(requests(third)).toBe(requests(fourth));
  });

  it('finishes a backfill a stopped run planned, without planning it again', async () => {
    const now = sandbox.world.now();
    const recent = now - 60 * DAY_MS;
    const early = now - 400 * DAY_MS;
    const uids = sandboxUids(sandbox);
    const streams = ['deposits', 'withdrawals', 'spotBills'];
    const first = await runSync(testSyncOptions(sandbox, killed.db, [], { sync: { since: recent, streams } }));
    expect(first.errors).toEqual([]);
    // Stopped (as a worker shutting down) as soon as its first backfill is planned, before any
    // of its pages: the windows are owed, the partitions' starts already moved.
    const stop = new AbortController();
    const key = (e: SyncEvent) => ('partition' in e ? `${e.account}/${e.stream}/${e.partition}` : '');
    const plannedThen: string[] = [];
    const stopped = await runSync(testSyncOptions(sandbox, killed.db, [], {
      sync: { since: early, streams }, signal: stop.signal,
      emit: (e) => { if (e.type === 'backfill') { plannedThen.push(key(e)); stop.abort(); } },
    }));
    expect(plannedThen.length).toBeGreaterThan(0);
    expect(stopped.status).not.toBe('ok');
    const owed = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_windows`.execute(killed.db)).rows[0]!.n;
    expect(owed).toBeGreaterThan(0);
    const events: SyncEvent[] = [];
    const resumed = await runSync(testSyncOptions(sandbox, killed.db, events, { sync: { since: early, streams } }));
    expect(resumed.errors).toEqual([]);
    expect(resumed.status).toBe('ok');
    // What the stopped run planned is only finished now, never planned again; the rest is planned now.
    const plannedNow = events.filter((e) => e.type === 'backfill').map(key);
    expect(plannedNow.filter((k) => plannedThen.includes(k))).toEqual([]);
    expect(plannedThen.length + plannedNow.length).toBe(new Set([...plannedThen, ...plannedNow]).size);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_windows`.execute(killed.db)).rows[0]!.n).toBe(0);
    expect((await diffAgainstTruth(sandbox, killed.db, uids, streams, early)).differences).toEqual([]);
  });

  it('reads the history before a first sync\'s default start, and drops that gap', async () => {
    const now = sandbox.world.now();
    const uids = sandboxUids(sandbox);
    const streams = ['deposits', 'withdrawals', 'transfers'];
    const first = await runSync(testSyncOptions(sandbox, byDefault.db, [], { sync: { since: undefined, historyDays: 100, streams } }));
    expect(first.errors).toEqual([]);
    const gaps = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM history_gaps WHERE gap_from = 'epoch'`.execute(byDefault.db)).rows[0]!.n;
    expect(await gaps()).toBeGreaterThan(2);
    const early = now - 731 * DAY_MS;
    const again = await runSync(testSyncOptions(sandbox, byDefault.db, [], { sync: { since: early, historyDays: 100, streams } }));
    expect(again.errors).toEqual([]);
    expect(inserted(again)).toBeGreaterThan(0);
    expect(await gaps()).toBe(0);
    expect((await diffAgainstTruth(sandbox, byDefault.db, uids, streams, early)).differences).toEqual([]);
  });
});
