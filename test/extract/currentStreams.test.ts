import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';

const env = sandboxWithDatabase();

describe('pending trigger orders (a current-state stream)', () => {
  it('stamp every order each run sees, also the unchanged ones', async () => {
    const stamps = async () => (await sql<{ run: string; n: string; unseen: string; runs: string }>`
      SELECT max(seen_run_id)::text AS run, count(*)::text AS n, count(*) FILTER (WHERE last_seen_at IS NULL)::text AS unseen,
        count(DISTINCT seen_run_id)::text AS runs
      FROM plan_orders`.execute(env.fresh.db)).rows[0]!;
    const first = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { sync: { streams: ['planOrders'] } }));
    expect(first.status).toBe('ok');
    const a = await stamps();
    expect(Number(a.n)).toBeGreaterThan(0);
    expect(a.unseen).toBe('0');
    expect(a.run).toBe(first.runId);
    // Every order of the first run is stamped by it (the insert stamps them; no UPDATE runs then).
    expect(a.runs).toBe('1');
    const seenAt = (await sql<{ t: Date }>`SELECT max(last_seen_at) AS t FROM plan_orders`.execute(env.fresh.db)).rows[0]!.t;

    const second = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { sync: { streams: ['planOrders'] } }));
    expect(second.status).toBe('ok');
    const total = Object.values(second.counts).reduce((s, c) => ({ updated: s.updated + c.updated, unchanged: s.unchanged + c.unchanged }), { updated: 0, unchanged: 0 });
    expect(total.updated).toBe(0);
    expect(total.unchanged).toBeGreaterThan(0);
    // Nothing changed, yet every order still pending carries the second run's stamp.
    const stale = await sql<{ n: string }>`SELECT count(*)::text AS n FROM plan_orders WHERE seen_run_id <> ${second.runId}::bigint OR last_seen_at <= ${seenAt}`.execute(env.fresh.db);
    const detail = await sql`SELECT account_uid, product_type, plan_type, order_id, c_time, seen_run_id, last_seen_at, problems, raw->>'planStatus' AS st FROM plan_orders WHERE seen_run_id <> ${second.runId}::bigint OR last_seen_at <= ${seenAt}`.execute(env.fresh.db);
    expect(stale.rows[0]!.n, JSON.stringify(detail.rows)).toBe('0');
  });
});
