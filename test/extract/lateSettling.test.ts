import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { control, startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { testSyncOptions } from '../support/testSync.js';
import { runSync } from '../../src/extract/runSync.js';
import type { SyncResult } from '../../src/extract/runSync.js';
import { syncStatus } from '../../src/extract/syncStatus.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { DAY_MS } from '../../src/api/endpoints.js';

// Issue 20 item 2: a deposit, withdrawal or transfer that is still open at one sync and settles
// after the 7-day look-back used to stay pending forever ("updated: 0", never in the ledger).
// Now every record that is not final is re-checked on each sync until it is: by its id (E20, X3
// by orderId) or by reading its moment again (E19), and `status` lists what is still open.

const streams = ['deposits', 'withdrawals', 'transfers'];
let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let outRoot: string;

interface OpenRow { stream: string; account_uid: string; record_id: string; since: Date }

beforeAll(async () => {
  // Seed 1, tiny: old open records in every one of the three streams (a deposit a year old, a
  // withdrawal two years old, a sub-account's transfer eight months old), each still open.
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-settle-'));
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

const sync = (): Promise<SyncResult> => runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { streams } }));

/** The open records (view open_records) older than the 7-day look-back, per stream. */
async function oldOpen(): Promise<OpenRow[]> {
  const { rows } = await sql<OpenRow>`
    SELECT stream, account_uid, record_id, since FROM open_records
    WHERE stream IN ('deposits', 'withdrawals', 'transfers') AND since < ${new Date(sandbox.world.now() - 8 * DAY_MS).toISOString()}::timestamptz
    ORDER BY stream, since, record_id`.execute(fresh.db);
  return rows;
}

const settle = async (r: OpenRow): Promise<void> => {
  const got = await control(sandbox, 'settle', { uid: r.account_uid, resource: r.stream, id: r.record_id });
  expect(got.settled, `${r.stream} ${r.record_id}`).toBe(true);
};

/** Recheck requests of a run, summed over accounts and partitions. */
const recheckRequests = (result: SyncResult): number =>
  Object.entries(result.counts).filter(([k]) => k.endsWith('open-recheck')).reduce((n, [, c]) => n + c.requests, 0);

describe('records that settle after the look-back', () => {
  let picked: OpenRow[];

  it('are listed as open by status, with their age, and flagged in data-quality.csv', async () => {
    const first = await sync();
    expect(first.errors).toEqual([]);
    const open = await oldOpen();
    picked = streams.map((s) => open.find((r) => r.stream === s)!);
    expect(picked.every((r) => r !== undefined), JSON.stringify(open)).toBe(true);

    const status = await syncStatus(fresh.db);
    for (const r of picked) {
      const s = status.streams.find((x) => x.account === r.account_uid && x.stream === r.stream)!;
      expect(s.open.count, r.stream).toBeGreaterThanOrEqual(1);
      // The oldest open record's time: at most as young as the one picked.
      expect(new Date(s.open.oldest!).getTime()).toBeLessThanOrEqual(r.since.getTime());
      expect(s.open.overdue).toBeGreaterThanOrEqual(1);
    }

    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = sandbox.world.now();
    const outDir = path.join(outRoot, 'native');
    await runReports({ databaseUrl: fresh.url, format: 'native', outDir, period: reportPeriod({ from: day(now - 800 * DAY_MS), to: day(now + 2 * DAY_MS), tz: 'UTC' }) });
    const rows = parse(await readFile(path.join(outDir, 'data-quality.csv')), { columns: true }) as Record<string, string>[];
    const unsettled = rows.filter((r) => r.kind === 'unsettled');
    for (const r of picked) {
      const row = unsettled.find((u) => u.record_id === r.record_id);
      expect(row, `${r.stream} ${r.record_id}`).toBeDefined();
      expect(row!.problem).toMatch(/still (pending|Processing) after .*limit 3 days/);
    }
  });

  it('reach the ledger on the next sync once settled, and are no longer listed as open', async () => {
    for (const r of picked) await settle(r);
    const second = await sync();
    expect(second.errors).toEqual([]);
    for (const r of picked) {
      const table = r.stream;
      const idColumn = r.stream === 'transfers' ? 'transfer_id' : 'order_id';
      const { rows } = await sql<{ status: string }>`SELECT status FROM ${sql.table(table)} WHERE account_uid = ${r.account_uid} AND ${sql.ref(idColumn)} = ${r.record_id}`.execute(fresh.db);
      expect(rows.map((x) => x.status), `${r.stream} ${r.record_id}`).toEqual([r.stream === 'transfers' ? 'Successful' : 'success']);
      const ledger = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger WHERE source = ${table} AND source_id = ${r.record_id}`.execute(fresh.db);
      expect(ledger.rows[0]!.n, `${r.stream} ${r.record_id} in the ledger`).toBeGreaterThan(0);
    }
    expect(recheckRequests(second)).toBeGreaterThan(0);
    const stillOpen = await oldOpen();
    for (const r of picked) expect(stillOpen.some((o) => o.record_id === r.record_id)).toBe(false);
  });

  it('cost nothing once nothing old is open: a sync with no open record behind the look-back makes no lookup', async () => {
    for (const r of await oldOpen()) await settle(r);
    const third = await sync();
    expect(third.errors).toEqual([]);
    expect(await oldOpen()).toEqual([]);

    const before = (await control(sandbox, 'stats')) as { requests: Record<string, Record<string, number>> };
    const fourth = await sync();
    expect(fourth.errors).toEqual([]);
    expect(recheckRequests(fourth)).toBe(0);
    // The exchange saw only the windows' requests for these endpoints: no lookup by id or moment.
    const after = (await control(sandbox, 'stats')) as { requests: Record<string, Record<string, number>> };
    const total = (s: typeof before) => ['E19', 'E20', 'X3'].reduce((n, e) => n + Object.values(s.requests[e] ?? {}).reduce((a, b) => a + b, 0), 0);
    const walked = Object.entries(fourth.counts).filter(([k]) => !k.endsWith('open-recheck')).reduce((n, [, c]) => n + c.requests, 0);
    expect(total(after) - total(before)).toBe(walked);
  });
});
