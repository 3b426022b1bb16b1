import { hostname } from 'node:os';
import pg from 'pg';
import type { WorkerUtils } from 'graphile-worker';

/** How a worker notices dead peers. Defaults suit production; tests shorten them. */
export interface LivenessTimes {
  /** How often a worker writes its heartbeat; default 30 s. */
  heartbeatMs: number;
  /** How often a worker looks for dead peers; default 60 s. */
  sweepMs: number;
  /** A peer silent this long is dead even if its connection looks alive (a frozen machine); default 10 min. */
  staleMs: number;
}

export const defaultLiveness: LivenessTimes = { heartbeatMs: 30_000, sweepMs: 60_000, staleMs: 600_000 };

/** A worker's entry in sync_workers, kept alive by one connection held for the worker's life. */
export interface WorkerRegistration {
  /** Pool ids of dead peers whose jobs this sweep unlocked. */
  sweep(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Registers a worker process (its engine pool id, host, pid and the backend of a connection it
 * holds open for life) and, every `sweepMs`, frees the jobs of dead peers: a peer whose backend
 * is gone (kill -9, OOM: the kernel closes the socket and PostgreSQL ends the backend at once)
 * or whose heartbeat is older than `staleMs` (a machine that froze or lost its network; its
 * socket may look open until TCP keepalive gives up). Their jobs are unlocked with the engine's
 * own `forceUnlockWorkers`, so a live worker takes them in seconds instead of after the engine's
 * 4-hour lock timeout. The account lock of the dead run died with its connection, so the retaken
 * job resumes from the last committed page: nothing lost, nothing doubled.
 *
 * @example
 * const reg = await registerWorker(url, runnerPoolId, utils, 2); ... await reg.close();
 */
export async function registerWorker(url: string, poolId: string, utils: Pick<WorkerUtils, 'forceUnlockWorkers'>, concurrency: number, times: LivenessTimes = defaultLiveness, onUnlocked: (poolIds: string[]) => void = () => undefined): Promise<WorkerRegistration> {
  const life = new pg.Client({ connectionString: url, application_name: `tradeledger worker ${poolId}` });
  life.on('error', () => {});
  await life.connect();
  await life.query(`INSERT INTO sync_workers (pool_id, host, pid, backend_pid, concurrency) VALUES ($1, $2, $3, pg_backend_pid(), $4)`, [poolId, hostname(), process.pid, concurrency]);
  let sweeping: Promise<string[]> | undefined;
  const sweep = async (): Promise<string[]> => {
    const { rows } = await life.query<{ pool_id: string }>(`
      SELECT pool_id FROM sync_workers
      WHERE pool_id <> $1 AND (backend_pid NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
         OR heartbeat_at < now() - make_interval(secs => $2))`, [poolId, times.staleMs / 1000]);
    // Jobs locked by a pool that never registered (it died in the instant between taking a job
    // and registering) count as dead once stale too.
    const orphans = await life.query<{ locked_by: string }>(`
      SELECT DISTINCT locked_by FROM graphile_worker.jobs
      WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)
        AND locked_by NOT IN (SELECT pool_id FROM sync_workers)`, [times.staleMs / 1000]);
    const dead = [...new Set([...rows.map((r) => r.pool_id), ...orphans.rows.map((r) => r.locked_by)])];
    if (dead.length === 0) return [];
    await utils.forceUnlockWorkers(dead);
    await life.query('DELETE FROM sync_workers WHERE pool_id = ANY($1::text[])', [dead]);
    onUnlocked(dead);
    return dead;
  };
  const guarded = () => (sweeping ??= sweep().finally(() => { sweeping = undefined; }));
  const beat = setInterval(() => { life.query('UPDATE sync_workers SET heartbeat_at = now() WHERE pool_id = $1', [poolId]).catch(() => undefined); }, times.heartbeatMs);
  const look = setInterval(() => { guarded().catch(() => undefined); }, times.sweepMs);
  beat.unref();
  look.unref();
  // Peers that died while no worker ran: free their jobs before taking any.
  await guarded();
  return {
    sweep: guarded,
    close: async () => {
      clearInterval(beat);
      clearInterval(look);
      await sweeping?.catch(() => undefined);
      await life.query('DELETE FROM sync_workers WHERE pool_id = $1', [poolId]).catch(() => undefined);
      await life.end().catch(() => undefined);
    },
  };
}
