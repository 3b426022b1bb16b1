// The sync refreshes the planner statistics of the tables it filled (src/db/plannerStatistics.ts):
// a never-analyzed table holding rows is due, an analyzed one only after autovacuum's threshold of
// changes, and the refresh samples at the reduced target.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshPlannerStatistics, refreshStatisticsTarget, tablesDueForAnalyze } from '../../src/db/plannerStatistics.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
let client: pg.Client;

beforeAll(async () => {
  fresh = await freshDatabase();
  client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await fresh?.drop();
});

const run = (text: string, values?: unknown[]) => client.query(text, values).then((r) => r.rows as Record<string, unknown>[]);

describe('planner statistics after a sync', () => {
  it('analyzes the tables that hold rows and were never analyzed, at the reduced target, then only what changed enough', async () => {
    await run(`INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw)
               SELECT 'A', 'd' || i, 'USDT', 'success', i, now(), '{}' FROM generate_series(1, 500) i`);
    // (Change counters reach the statistics system when a backend reports them, at most once a
    // second unless forced.)
    await run('SELECT pg_stat_force_next_flush()');
    expect(await tablesDueForAnalyze(run)).toContain('deposits');

    await run('BEGIN');
    const analyzed = await refreshPlannerStatistics(run);
    await run('COMMIT');
    expect(analyzed).toContain('deposits');
    const stats = await run(`SELECT c.reltuples::int AS rows, (SELECT count(*) FROM pg_stats s WHERE s.tablename = 'deposits' AND s.attname = 'order_id')::int AS columns
                             FROM pg_class c WHERE c.relname = 'deposits'`);
    expect(stats[0]).toEqual({ rows: 500, columns: 1 });
    // SET LOCAL: the session's own target is untouched.
    expect((await run('SHOW default_statistics_target'))[0]!.default_statistics_target).not.toBe(String(refreshStatisticsTarget));

    // 500 rows analyzed: 10 more rows are below autovacuum's threshold (50 + 10%), 200 are not.
    await run(`INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw)
               SELECT 'A', 'e' || i, 'USDT', 'success', i, now(), '{}' FROM generate_series(1, 10) i`);
    await run('SELECT pg_stat_force_next_flush()');
    expect(await tablesDueForAnalyze(run)).not.toContain('deposits');
    await run(`INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw)
               SELECT 'A', 'f' || i, 'USDT', 'success', i, now(), '{}' FROM generate_series(1, 200) i`);
    await run('SELECT pg_stat_force_next_flush()');
    expect(await tablesDueForAnalyze(run)).toContain('deposits');
  });
});
