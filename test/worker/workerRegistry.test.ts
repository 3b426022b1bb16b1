import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeWorkerUtils } from 'graphile-worker';
import type { WorkerUtils } from 'graphile-worker';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { waitFor } from '../support/workerProcesses.js';
import { registerWorker } from '../../src/worker/workerRegistry.js';
import type { WorkerRegistration } from '../../src/worker/workerRegistry.js';

let fresh: FreshDatabase;
let utils: WorkerUtils;
const open: WorkerRegistration[] = [];

beforeAll(async () => {
  fresh = await freshDatabase();
  utils = await makeWorkerUtils({ connectionString: fresh.url });
  await utils.migrate();
});
afterAll(async () => {
  for (const r of open) await r.close();
  await utils?.release();
  await fresh?.drop();
});

// Heartbeats every 100 ms; sweeps only when the test asks; a peer is dead after 30 s of silence.
const times = { heartbeatMs: 100, sweepMs: 3_600_000, staleMs: 30_000 };
const beatOf = async (pool: string) => (await sql<{ at: Date }>`SELECT heartbeat_at AS at FROM sync_workers WHERE pool_id = ${pool}`.execute(fresh.db)).rows[0]?.at;

describe('worker liveness by heartbeat', () => {
  it('after every connection is cut (a restart), a late worker frees no live peer, and the peers beat again on new connections', async () => {
    const freed: string[] = [];
    const a = await registerWorker(fresh.url, 'pool-a', utils, 1, times, (d) => freed.push(...d));
    const b = await registerWorker(fresh.url, 'pool-b', utils, 1, times, (d) => freed.push(...d));
    open.push(a, b);
    // What a PostgreSQL restart does to the workers: every session ends.
    const { rows: [cut] } = await sql<{ at: Date }>`SELECT now() AS at`.execute(fresh.db);
    await sql`SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
      WHERE datname = current_database() AND application_name LIKE 'tradeledger-worker-registry-pool-%'`.execute(fresh.db);

    // A replacement worker starts now: its first sweep must not call a or b dead.
    const late = await registerWorker(fresh.url, 'pool-late', utils, 1, times, (d) => freed.push(...d));
    open.push(late);
    expect(await late.sweep()).toEqual([]);
    expect(freed).toEqual([]);

    // The survivors' heartbeats go on through new connections.
    await waitFor('a and b to beat again', async () => ((await beatOf('pool-a'))! > cut!.at) && ((await beatOf('pool-b'))! > cut!.at), 20_000);

    // A survivor whose row was removed registers again with its next beat.
    await sql`DELETE FROM sync_workers WHERE pool_id = 'pool-b'`.execute(fresh.db);
    await waitFor('b to register again', async () => (await beatOf('pool-b')) !== undefined, 20_000);
    expect(await late.sweep()).toEqual([]);
  });

  it('frees the jobs of a peer whose heartbeat is stale, and only those', async () => {
    const freed: string[] = [];
    const c = await registerWorker(fresh.url, 'pool-c', utils, 1, times, (d) => freed.push(...d));
    open.push(c);
    // A worker that stopped beating an hour ago (killed, its machine gone), holding a job.
    await sql`INSERT INTO sync_workers (pool_id, host, pid, concurrency, heartbeat_at) VALUES ('pool-dead', 'gone', 1, 1, now() - interval '1 hour')`.execute(fresh.db);
    const job = await utils.addJob('noop', {}, { queueName: 'q-dead' });
    await sql`UPDATE graphile_worker._private_jobs SET locked_by = 'pool-dead', locked_at = now() - interval '1 hour' WHERE id = ${job.id}::bigint`.execute(fresh.db);
    expect(await c.sweep()).toEqual(['pool-dead']);
    const { rows: [after] } = await sql<{ locked_by: string | null }>`SELECT locked_by FROM graphile_worker.jobs WHERE id = ${job.id}::bigint`.execute(fresh.db);
    expect(after!.locked_by).toBeNull();
    const { rows } = await sql<{ pool_id: string }>`SELECT pool_id FROM sync_workers ORDER BY pool_id`.execute(fresh.db);
    expect(rows.map((r) => r.pool_id)).not.toContain('pool-dead');
    expect(rows.map((r) => r.pool_id)).toContain('pool-a');
  });
});
