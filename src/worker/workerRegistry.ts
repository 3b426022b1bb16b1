import { hostname } from 'node:os';
import type { WorkerUtils } from 'graphile-worker';
import { createPool } from '../db/pools.js';
import { databaseOn } from '../db/databaseOn.js';

/** How a worker notices dead peers. Defaults suit production; tests shorten them. */
export interface LivenessTimes {
  /** How often a worker writes its heartbeat; default 10 s. */
  heartbeatMs: number;
  /** How often a worker looks for dead peers; default 15 s. */
  sweepMs: number;
  /** A peer whose heartbeat is this old is dead (killed, crashed, frozen, cut off); default 60 s. */
  staleMs: number;
}

export const defaultLiveness: LivenessTimes = { heartbeatMs: 10_000, sweepMs: 15_000, staleMs: 60_000 };

/** A worker's entry in sync_workers, kept alive by its heartbeat. */
export interface WorkerRegistration {
  /** Pool ids of dead peers whose jobs this sweep unlocked. */
  sweep(): Promise<string[]>;
  /** Writes the heartbeat now (re-registering if the row is gone); resolves false when the database did not answer. */
  beat(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Registers a worker process (its engine pool id, host, pid) in sync_workers and keeps its
 * heartbeat fresh every `heartbeatMs`; every `sweepMs` it frees the jobs of dead peers. A peer is
 * dead only by time: its heartbeat (the database's clock) is older than `staleMs`, counted at the
 * earliest from the database server's start (`pg_postmaster_start_time()`), so a restart that
 * kept everyone from beating for a while condemns nobody. Never by whether a peer's connection is
 * there: connections die with every restart and are re-made, and a later worker must not call
 * its live peers dead because their old backends are gone.
 *
 * The registry's connection is a one-connection pool, re-made after a restart, and each
 * heartbeat is an upsert, so a worker whose row was removed (a sweep while it was cut off)
 * registers again with its next beat. Jobs of dead peers are unlocked with the engine's own
 * `forceUnlockWorkers`, so a live worker takes them within about `staleMs + sweepMs` instead of
 * the engine's 4-hour lock timeout. The account lock and fencing token of the dead run stop it
 * from writing even if it was only frozen (src/extract/syncLock.ts): nothing lost, nothing doubled.
 *
 * @example
 * const reg = await registerWorker(url, runnerPoolId, utils, 2); ... await reg.close();
 */
export async function registerWorker(url: string, poolId: string, utils: Pick<WorkerUtils, 'forceUnlockWorkers'>, concurrency: number, times: LivenessTimes = defaultLiveness, onUnlocked: (poolIds: string[]) => void = () => undefined): Promise<WorkerRegistration> {
  // A restart ends the idle connection: the pool drops it and connects again at the next query.
  const pool = createPool({ url, name: `worker-registry-${poolId}`, max: 1 });
  const upsert = `INSERT INTO sync_workers (pool_id, host, pid, backend_pid, concurrency) VALUES ($1, $2, $3, pg_backend_pid(), $4)
    ON CONFLICT (pool_id) DO UPDATE SET heartbeat_at = now(), backend_pid = EXCLUDED.backend_pid`;
  const params = [poolId, hostname(), process.pid, concurrency];
  await pool.query(upsert, params);
  let closed = false;
  const beat = async (): Promise<boolean> => {
    if (closed) return false;
    try {
      await pool.query(upsert, params);
      return true;
    } catch {
      return false;
    }
  };
  let sweeping: Promise<string[]> | undefined;
  const sweep = async (): Promise<string[]> => {
    const { rows } = await pool.query<{ pool_id: string }>(`
      SELECT pool_id FROM sync_workers
      WHERE pool_id <> $1 AND greatest(heartbeat_at, pg_postmaster_start_time()) < now() - make_interval(secs => $2)`, [poolId, times.staleMs / 1000]);
    // Jobs locked by a pool that never registered (it died in the instant between taking a job
    // and registering) count as dead once stale too.
    const orphans = await pool.query<{ locked_by: string }>(`
      SELECT DISTINCT locked_by FROM graphile_worker.jobs
      WHERE locked_by IS NOT NULL AND greatest(locked_at, pg_postmaster_start_time()) < now() - make_interval(secs => $1)
        AND locked_by NOT IN (SELECT pool_id FROM sync_workers)`, [times.staleMs / 1000]);
    const dead = [...new Set([...rows.map((r) => r.pool_id), ...orphans.rows.map((r) => r.locked_by)])];
    if (dead.length === 0) return [];
    await utils.forceUnlockWorkers(dead);
    await databaseOn(pool).deleteFrom('sync_workers').where('pool_id', 'in', dead).execute();
    onUnlocked(dead);
    return dead;
  };
  const guarded = () => (sweeping ??= sweep().finally(() => { sweeping = undefined; }));
  const beating = setInterval(() => { void beat(); }, times.heartbeatMs);
  const look = setInterval(() => { guarded().catch(() => undefined); }, times.sweepMs);
  beating.unref();
  look.unref();
  // Peers that died while no worker ran: free their jobs before taking any.
  await guarded();
  return {
    sweep: guarded,
    beat,
    close: async () => {
      closed = true;
      clearInterval(beating);
      clearInterval(look);
      await sweeping?.catch(() => undefined);
      await databaseOn(pool).deleteFrom('sync_workers').where('pool_id', '=', poolId).execute().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
