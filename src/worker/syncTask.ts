import type { Kysely } from 'kysely';
import type { Task } from 'graphile-worker';
import { TradeledgerError } from '../errors.js';
import { refusalError } from '../db/connectionProblem.js';
import { runSync } from '../extract/runSync.js';
import type { SyncOptions } from '../extract/syncOptions.js';
import { isPermanent, recordPermanentFailure } from './permanentFailure.js';
import type { SyncJobPayload } from './syncJobSpec.js';
import type { WorkerLog } from './workerLog.js';

/** What a sync task needs from the worker process: the database and the engine options of one account. */
export interface SyncTaskContext {
  readonly db: Kysely<any>;
  /** The sync options of one configured account (throws a config error for an unknown one). */
  optionsFor(account: string, streams: readonly string[] | undefined): SyncOptions;
  readonly log: WorkerLog;
  /** The exchange clock offset shared by the process's jobs (see sharedClockOffset). */
  clockOffset(o: Pick<SyncOptions, 'baseUrl' | 'client'>): Promise<number>;
  /**
   * Called when a job is handed back at shutdown, with the attempts it had before this worker
   * took it: the worker puts that count back once the engine has let go of the job.
   */
  handBack?(job: { id: string; attemptsBefore: number }): void;
  /** After the stop grace, how long a sync may take to reach its next page before the job goes back anyway; default 5 s. */
  readonly settleMs?: number;
}

/** The error a job handed back at shutdown ends with: not a failure, and logged at info. */
export class HandedBack extends Error {
  constructor() {
    super('the worker is shutting down; the job is retried, resuming from its last committed page');
    this.name = 'HandedBack';
  }
}

/**
 * The engine task that syncs one account: the same `runSync` the `tradeledger sync` command
 * calls, for the one account the job names, inside that account's advisory lock. A complete run
 * completes the job. A partial run (the CLI's exit 3) throws, so the engine retries it with
 * back-off and the next attempt resumes where this one stopped. A configuration or
 * authentication error is recorded once in sync_job_failures and logged once, and the job
 * completes: retrying would fail the same way. A worker shutting down stops the run at its next
 * page (its lock released, its committed pages kept) and hands the job back: logged at info
 * (`job-handed-back`), and the attempt it took is given back (see runWorker).
 *
 * @example
 * run({ taskList: { tradeledger_sync: syncTask(ctx) } });
 */
export function syncTask(ctx: SyncTaskContext): Task {
  return async (rawPayload, helpers) => {
    const p = rawPayload as SyncJobPayload;
    const job = { account: p.account, uid: p.uid, jobId: helpers.job.id, attempt: helpers.job.attempts, of: helpers.job.max_attempts };
    try {
      const base = ctx.optionsFor(p.account, p.streams);
      const options: SyncOptions = { ...base, clockOffsetMs: await ctx.clockOffset(base) };
      if (options.accounts[0]?.uid !== undefined && options.accounts[0].uid !== p.uid) {
        throw new TradeledgerError('ACCOUNT_UID_CHANGED', `account "${p.account}" has uid ${options.accounts[0].uid} in the config, but the job was queued for ${p.uid}`, {
          kind: 'config', hint: 'enqueue the account again (`tradeledger enqueue --account NAME`) after changing its uid',
        });
      }
      ctx.log.write({ type: 'job-start', ...job });
      // The engine's abortPromise settles when the stop grace ends: the run is asked to stop at
      // its next page, and the job goes back once it has (or after settleMs, whichever is first).
      const stop = new AbortController();
      const running = runSync({ ...options, signal: stop.signal });
      running.catch(() => undefined);
      const first = await Promise.race([running, helpers.abortPromise.then(() => 'aborted' as const, () => 'aborted' as const)]);
      let result: Awaited<typeof running>;
      if (first === 'aborted') {
        stop.abort();
        let timer: NodeJS.Timeout | undefined;
        const settled = await Promise.race([
          running.then((r) => r, () => undefined),
          new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ctx.settleMs ?? 5000); }),
        ]).finally(() => clearTimeout(timer));
        if (settled?.status !== 'ok') {
          ctx.handBack?.({ id: helpers.job.id, attemptsBefore: helpers.job.attempts - 1 });
          ctx.log.write({ type: 'job-handed-back', level: 'info', ...job, ...(settled ? { runId: settled.runId } : {}) });
          throw new HandedBack();
        }
        result = settled;
      } else {
        result = first;
      }
      if (result.status !== 'ok') {
        ctx.log.write({ type: 'job-partial', ...job, failed: result.errors.length, runId: result.runId });
        throw new Error(`partial sync of "${p.account}" (run ${result.runId}): ${result.errors.length} partition(s) failed, first: ${result.errors[0]?.stream}/${result.errors[0]?.partition} ${result.errors[0]?.code} ${result.errors[0]?.message}`);
      }
      ctx.log.write({ type: 'job-done', ...job, runId: result.runId });
    } catch (e) {
      if (isPermanent(e)) {
        await recordPermanentFailure(ctx.db, job, e);
        ctx.log.write({ type: 'job-failed', ...job, permanent: true, code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) });
        return;
      }
      if (!(e instanceof HandedBack) && !(e instanceof Error && e.message.startsWith('partial sync'))) {
        ctx.log.write({ type: 'job-error', ...job, code: e instanceof TradeledgerError ? e.code : refusalError(e)?.code ?? 'INTERNAL', message: e instanceof Error ? e.message : String(e) });
      }
      throw e;
    }
  };
}
