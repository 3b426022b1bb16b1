import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { control, startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { sandboxUids, testSyncOptions } from '../support/testSync.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;

/** The sandbox's own bad spot order lies beyond X1's 90-day horizon, so one recent order is spoiled too. */
const spoiledFeeDetail = '{"newFees":{"c":0,"d":0,"r":-0.5,"t":-0.5';

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  const main = sandbox.world.accounts.find((a) => a.main && !a.demo)!;
  const series = sandbox.world.series(main.uid, 'spotOrders', 'all') as unknown as {
    query(q: { limit: number }): { orderId: string }[]; indexOf(id: string): number; at(i: number): object; replace(i: number, r: object): void;
  };
  const newest = series.query({ limit: 1 })[0]!;
  const i = series.indexOf(newest.orderId);
  series.replace(i, { ...series.at(i), feeDetail: spoiledFeeDetail });
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

const historyTotals = (counts: Record<string, { inserted: number; updated: number; unchanged: number }>) => {
  const names = new Set(historyStreams.map((s) => s.name));
  let inserted = 0; let updated = 0; let unchanged = 0;
  for (const [label, c] of Object.entries(counts)) {
    if (!names.has(label.split('/')[1]!)) continue;
    inserted += c.inserted; updated += c.updated; unchanged += c.unchanged;
  }
  return { inserted, updated, unchanged };
};

describe('sync against the sandbox', () => {
  it('syncs every stream of every account and the database equals the ground truth', async () => {
    const result = await runSync(testSyncOptions(sandbox, fresh.db));
    expect(result.errors).toEqual([]);
    expect(result.status).toBe('ok');
    const { differences, compared } = await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox));
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
    for (const s of historyStreams) {
      const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(s.table)}`.execute(fresh.db);
      expect(Number(rows[0]!.n), `${s.table} has rows`).toBeGreaterThan(0);
    }
    for (const table of ['futures_account_snapshots', 'position_snapshots', 'sub_account_snapshots', 'sub_account_api_key_snapshots', 'contract_snapshots']) {
      const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}`.execute(fresh.db);
      expect(Number(rows[0]!.n), `${table} has rows`).toBeGreaterThan(0);
    }
  });

  it('reads single positions through E12 only on demand', async () => {
    const e12 = () => Object.values(sandbox.stats.requests['E12'] ?? {}).reduce((a, n) => a + n, 0);
    expect(e12(), 'a full sync does not call E12').toBe(0);
    const result = await runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { streams: ['positions', 'singlePositions'] } }));
    expect(result.errors).toEqual([]);
    const partitions = Object.keys(result.counts).filter((k) => k.includes('/singlePositions/'));
    expect(partitions.length).toBeGreaterThan(0);
    expect(e12()).toBe(partitions.length);
    const { rows } = await sql<{ n: string }>`SELECT count(DISTINCT snapshot_at)::text AS n FROM position_snapshots`.execute(fresh.db);
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('records the horizon gaps of the 90-day endpoints', async () => {
    const { rows } = await sql<{ stream: string; days: string }>`
      SELECT DISTINCT stream, round(extract(epoch FROM gap_to - gap_from) / 86400)::text AS days FROM history_gaps ORDER BY stream`.execute(fresh.db);
    expect(rows.map((r) => r.stream)).toEqual(['futuresOrders', 'spotOrders']);
    for (const r of rows) expect(Number(r.days)).toBeGreaterThan(600);
    const runs = await sql<{ gaps: unknown[] }>`SELECT gaps FROM sync_runs ORDER BY id LIMIT 1`.execute(fresh.db);
    expect(runs.rows[0]!.gaps.length).toBeGreaterThan(0);
  });

  it('stores bad records raw and flagged: malformed feeDetail, unknown enum, missing field', async () => {
    const bad = await sql<{ t: string; problems: string[]; raw: unknown }>`
      SELECT 'spot_orders' AS t, problems, raw FROM spot_orders WHERE fee_detail = ${spoiledFeeDetail}
      UNION ALL SELECT 'deposits', problems, raw FROM deposits WHERE raw->>'dest' = 'lightning'
      UNION ALL SELECT 'spot_bills', problems, raw FROM spot_bills WHERE NOT raw ? 'balance'`.execute(fresh.db);
    for (const t of ['spot_orders', 'deposits', 'spot_bills']) {
      const rows = bad.rows.filter((r) => r.t === t);
      expect(rows.length, `${t} has its bad record`).toBeGreaterThan(0);
      for (const r of rows) expect(r.problems.length, `${t} flags its bad record`).toBeGreaterThan(0);
    }
    const clean = await sql<{ n: string }>`SELECT count(*)::text AS n FROM spot_fills WHERE problems <> '{}'`.execute(fresh.db);
    expect(clean.rows[0]!.n).toBe('0');
  });

  it('derives fee rows from spot orders, spot fills and futures fills', async () => {
    const { rows } = await sql<{ source: string; n: string }>`SELECT source, count(*)::text AS n FROM fees GROUP BY source ORDER BY source`.execute(fresh.db);
    expect(rows.map((r) => r.source)).toEqual(['futures_fills', 'spot_fills', 'spot_orders']);
    const orphan = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM fees f WHERE f.source = 'spot_fills'
        AND NOT EXISTS (SELECT 1 FROM spot_fills s WHERE s.account_uid = f.account_uid AND s.trade_id = f.source_id)`.execute(fresh.db);
    expect(orphan.rows[0]!.n).toBe('0');
  });

  it('changes nothing on a second sync with nothing new', async () => {
    const before = await sql<{ n: string }>`SELECT count(*)::text AS n FROM fees`.execute(fresh.db);
    const result = await runSync(testSyncOptions(sandbox, fresh.db));
    expect(result.status).toBe('ok');
    const t = historyTotals(result.counts);
    expect({ inserted: t.inserted, updated: t.updated }).toEqual({ inserted: 0, updated: 0 });
    expect(t.unchanged).toBeGreaterThan(0);
    const after = await sql<{ n: string }>`SELECT count(*)::text AS n FROM fees`.execute(fresh.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('records an order going live -> filled between syncs, through E15 when it is older than the look-back', async () => {
    const main = sandbox.accounts.find((a) => a.main && !a.demo)!;
    const order = await sql<{ order_id: string }>`SELECT order_id FROM spot_orders WHERE account_uid = ${main.uid} AND status IN ('live', 'partially_filled') ORDER BY order_id DESC LIMIT 1`.execute(fresh.db);
    const orderId = order.rows[0]?.order_id;
    expect(orderId, 'the sandbox has a live order').toBeDefined();
    await control(sandbox, 'settle', { uid: main.uid, resource: 'spotOrders', id: orderId });
    // No look-back: the history windows do not reach the order again, only the E15 refresh does.
    const result = await runSync(testSyncOptions(sandbox, fresh.db, [], { sync: { streams: ['spotOrders'], lookbackDays: 0 } }));
    expect(result.status).toBe('ok');
    expect(result.counts[`${main.name}/spotOrders/open-recheck`]!.updated).toBeGreaterThanOrEqual(1);
    const o = await sql<{ status: string; updated_at: Date; first_seen_at: Date }>`SELECT status, updated_at, first_seen_at FROM spot_orders WHERE account_uid = ${main.uid} AND order_id = ${orderId}`.execute(fresh.db);
    expect(o.rows[0]!.status).toBe('filled');
    expect(o.rows[0]!.updated_at.getTime()).toBeGreaterThan(o.rows[0]!.first_seen_at.getTime());
  });

  it('records a deposit going pending -> success between syncs, through the look-back', async () => {
    const main = sandbox.accounts.find((a) => a.main && !a.demo)!;
    const deposit = await sql<{ order_id: string }>`SELECT order_id FROM deposits WHERE account_uid = ${main.uid} AND status = 'pending' ORDER BY order_id DESC LIMIT 1`.execute(fresh.db);
    const depositId = deposit.rows[0]?.order_id;
    expect(depositId, 'the sandbox has a pending deposit').toBeDefined();
    await control(sandbox, 'settle', { uid: main.uid, resource: 'deposits', id: depositId });
    const result = await runSync(testSyncOptions(sandbox, fresh.db));
    expect(result.status).toBe('ok');
    expect(historyTotals(result.counts).updated).toBeGreaterThanOrEqual(1);
    const d = await sql<{ status: string }>`SELECT status FROM deposits WHERE account_uid = ${main.uid} AND order_id = ${depositId}`.execute(fresh.db);
    expect(d.rows[0]!.status).toBe('success');
    const { differences } = await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox));
    expect(differences.slice(0, 10)).toEqual([]);
  });
});
