import { EventEmitter } from 'node:events';
import { makeWorkerUtils, run } from 'graphile-worker';
import { workerConnections } from './workerConnections.js';
import { createPool } from '../db/pools.js';
import type { Runner, TaskList, WorkerEvents } from 'graphile-worker';
import type { Kysely } from 'kysely';
import type { SyncOptions } from '../extract/syncOptions.js';
import { enqueueSyncs } from './enqueueSyncs.js';
import { nightlySchedule } from './nightlySchedule.js';
import { syncTask } from './syncTask.js';
import { sharedClockOffset } from './sharedClockOffset.js';
import { enqueueAllTaskName, syncTaskName } from './syncJobSpec.js';
import type { SyncJobPayload } from './syncJobSpec.js';
import { registerWorker, defaultLiveness } from './workerRegistry.js';
import type { LivenessTimes, WorkerRegistration } from './workerRegistry.js';
import { engineLogger } from './workerLog.js';
import type { WorkerLog } from './workerLog.js';

/** Everything one worker process needs; built by the CLI from the frozen config. */
export interface WorkerOptions {
  readonly url: string;
  readonly db: Kysely<any>;
  /** Jobs (accounts) this process syncs at once. */
  readonly concurrency: number;
  /** The config's cron pattern; undefined = no nightly enqueue from this config. */
  readonly schedule: string | undefined;
  /** The sync options of one configured account. */
  optionsFor(account: string, streams: readonly string[] | undefined): SyncOptions;
  /** Every configured account with its UID, for the nightly enqueue. */
  accountsToQueue(): Promise<SyncJobPayload[]>;
  readonly log: WorkerLog;
  readonly liveness?: LivenessTimes;
  /** On stop, how long a running sync may go on before its job is handed back; default 10 s. */
  readonly stopGraceMs?: number;
  /** How often an idle worker polls for due jobs (retries); default 2 s. New jobs arrive by LISTEN/NOTIFY at once. */
  readonly pollMs?: number;
}

export interface RunningWorker {
  /** Stops taking jobs, hands running ones back to the engine (retried elsewhere, no attempt spent), and releases everything. */
  stop(): Promise<void>;
  /** Settles when the engine stops on its own (a fatal error rejects it). */
  readonly done: Promise<void>;
}

/**
 * Runs one graphile-worker pool on the database: the sync task (one account per job, one job per
 * account at a time through the account's queue), the nightly schedule through the engine's
 * own cron, and the dead-peer sweep (see `registerWorker`). Any number of these run on any
 * number of machines against one database, each with the same config file.
 *
 * @example
 * const w = await runWorker(options); process.on('SIGTERM', () => w.stop());
 */
export async function runWorker(o: WorkerOptions): Promise<RunningWorker> {
  // Jobs handed back at shutdown, with the attempts each had before this worker took it.
  const handedBack = new Map<string, number>();
  const taskList: TaskList = {
    [syncTaskName]: syncTask({
      db: o.db, optionsFor: o.optionsFor, log: o.log, clockOffset: sharedClockOffset(),
      handBack: (job) => { handedBack.set(job.id, job.attemptsBefore); },
    }),
    [enqueueAllTaskName]: async (payload, helpers) => {
      const jobs = await o.accountsToQueue();
      await enqueueSyncs(helpers, jobs);
      const tick = (payload as { _cron?: { ts?: string } } | null)?._cron?.ts ?? null;
      o.log.write({ type: 'schedule-enqueued', tick, accounts: jobs.length });
    },
  };
  const events: WorkerEvents = new EventEmitter();
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }) => { poolId = workerPool.id; });
  events.on('job:failed', ({ job, error }) => {
    o.log.write({ type: 'job-failed', jobId: job.id, task: job.task_identifier, permanent: false, attempts: job.attempts, message: error instanceof Error ? error.message : String(error) });
  });
  const quiet = engineLogger(o.log, (id) => handedBack.has(id));
  // Pool sizes as workerConnections() counts them (docs/operations.md). The engine is given its
  // pools (it ends only pools it made itself, so stop() ends these); a connection's error is
  // logged as the engine logged it on pools of its own.
  const budget = workerConnections(o.concurrency);
  const onError = (e: Error) => o.log.write({ type: 'engine', level: 'error', message: `PostgreSQL client generated error: ${e.message}` });
  const utilitiesPool = createPool({ url: o.url, name: 'worker-utilities', max: budget.utilities, onError });
  const enginePool = createPool({ url: o.url, name: 'worker-engine', max: budget.engine, onError });
  const endPools = async () => { await Promise.all([utilitiesPool.end().catch(() => undefined), enginePool.end().catch(() => undefined)]); };
  let utils: Awaited<ReturnType<typeof makeWorkerUtils>>;
  try {
    utils = await makeWorkerUtils({ pgPool: utilitiesPool, logger: quiet });
  } catch (e) {
    await endPools();
    throw e;
  }
  let runner: Runner | undefined;
  let registration: WorkerRegistration | undefined;
  try {
    await utils.migrate();
    runner = await run({
      pgPool: enginePool, concurrency: o.concurrency, noHandleSignals: true, pollInterval: o.pollMs ?? 2000,
      logger: quiet, events, taskList,
      parsedCronItems: o.schedule === undefined ? [] : nightlySchedule(o.schedule),
      // Give a running sync a moment to reach its next commit before it is abandoned.
      gracefulShutdownAbortTimeout: o.stopGraceMs ?? 10_000,
      // Batched (delay 0), a job's completion or failure is flushed by the engine's shutdown
      // before it lets go; unbatched, 0.17 fires it without waiting, and a process that exits
      // after stop() could leave a finished job locked.
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });
    registration = await registerWorker(o.url, poolId ?? 'unknown', utils, o.concurrency, o.liveness ?? defaultLiveness, (dead) => o.log.write({ type: 'dead-workers-freed', pools: dead }));
  } catch (e) {
    await runner?.kill().catch(() => undefined);
    await utils.release();
    await endPools();
    throw e;
  }
  o.log.write({ type: 'worker-start', pool: poolId, concurrency: o.concurrency, schedule: o.schedule ?? null });
  const r = runner;
  const reg = registration;
  let stopping: Promise<void> | undefined;
  return {
    done: r.promise,
    stop: () => (stopping ??= (async () => {
      try {
        await r.stop();
      } catch {
        // The engine failed the abandoned jobs for a retry; their attempts are put back below.
      }
      // The engine counts an attempt when it takes a job and fails a handed-back one like any
      // other: give the attempt back and make the job due now, so a deploy costs no attempt.
      for (const [id, attempts] of handedBack) {
        // The engine's own reschedule_jobs (utils.rescheduleJobs would read attempts 0 as "unchanged").
        const back = await utils.withPgClient((c) => c.query('SELECT id FROM graphile_worker.reschedule_jobs(ARRAY[$1]::bigint[], run_at := now(), attempts := $2::int)', [id, attempts]))
          .then((r) => r.rows.length, () => 0);
        if (back === 0) o.log.write({ type: 'job-handback-incomplete', level: 'warn', jobId: id, message: 'the engine still held the job; it is retried after its back-off with one attempt spent' });
      }
      await reg.close();
      await utils.release();
      await endPools();
      o.log.write({ type: 'worker-stop', pool: poolId });
    })()),
  };
}
