import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { defaultMigrationsDir } from '../../src/db/migrationFiles.js';
import { emptyDatabase } from '../support/database.js';

// Migration 0082 gives the partitions of a database synced before it their start where the
// bookkeeping says it, never earlier than the truth (an earlier start would make a later --since
// skip history; a later one only re-reads some).

let database: { url: string; drop(): Promise<void> };
let dir: string;
let client: pg.Client;

beforeAll(async () => {
  database = await emptyDatabase();
  dir = await mkdtemp(join(tmpdir(), 'tl-0082-'));
  // Every migration before 0082, as a database synced by the previous version has them.
  for (const f of await readdir(defaultMigrationsDir)) {
    if (/^\d{4}_/.test(f) && f < '0082') await cp(join(defaultMigrationsDir, f), join(dir, f));
  }
  await migrate(database.url, { dir });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('migration 0082 (sync_state.history_from)', () => {
  it('takes the start from a default-start gap, a horizon gap, or the --since every run of the account asked', async () => {
    // Each row written by a run whose lock is long gone, as every row of a real database is: the
    // account's fence refuses any write to it on that run's behalf.
    await client.query(`
      INSERT INTO sync_state (account_uid, stream, partition, watermark, last_run_id) VALUES
        ('A', 'deposits', 'all', '2026-11-01Z', 1),     -- default start: gap from the epoch
        ('A', 'spotOrders', 'all', '2026-11-01Z', 1),   -- 90-day horizon: gaps from the start asked, then a watermark
        ('B', 'deposits', 'all', '2026-11-01Z', 1),     -- no gap; every run of B asked a --since
        ('C', 'deposits', 'all', '2026-11-01Z', 3),     -- no gap; one run of C asked none
        ('D', 'deposits', 'all', '2026-11-01Z', NULL);  -- no gap, no run
      INSERT INTO sync_fences (account_uid, generation, run_id, holder_pid) VALUES ('A', 1, 1, 1), ('B', 1, 1, 1), ('C', 1, 3, 1);
      INSERT INTO history_gaps (account_uid, stream, partition, gap_from, gap_to, reason) VALUES
        ('A', 'deposits', 'all', 'epoch', '2024-11-01Z', 'default start'),
        ('A', 'spotOrders', 'all', '2024-11-01Z', '2026-08-01Z', 'horizon'),
        ('A', 'spotOrders', 'all', '2026-09-01Z', '2026-09-15Z', 'horizon');
      INSERT INTO sync_runs (options, account_uids) VALUES
        ('{"since": 1704067200000}', '{B}'),   -- 2024-01-01
        ('{"since": 1735689600000}', '{B,C}'), -- 2025-01-01
        ('{}', '{C}');`);
    await migrate(database.url);
    const { rows } = await client.query<{ account_uid: string; stream: string; f: string | null }>(
      `SELECT account_uid, stream, to_char(history_from AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS f FROM sync_state ORDER BY 1, 2`);
    expect(rows).toEqual([
      { account_uid: 'A', stream: 'deposits', f: '2024-11-01' },
      { account_uid: 'A', stream: 'spotOrders', f: '2024-11-01' },
      // The latest of the runs' --since: the first sync began at one of them, never after it.
      { account_uid: 'B', stream: 'deposits', f: '2025-01-01' },
      { account_uid: 'C', stream: 'deposits', f: null },
      { account_uid: 'D', stream: 'deposits', f: null },
    ]);
    // The fence is on again.
    await expect(client.query(`UPDATE sync_state SET status = 'ok' WHERE account_uid = 'A'`)).rejects.toThrow(/lost the lock/);
  });
});
