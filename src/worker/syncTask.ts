import type { Kysely } from 'kysely';
import type { Task } from 'graphile-worker';
import { TradeledgerError } from '../errors.js';
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
}

/**
 * The engine task that syncs one account: the same `runSync` the `tradeledger sync` command
 * calls, for the one account the job names, inside that account's advisory lock. A complete run
 * completes the job. A partial run (the CLI's exit 3) throws, so the engine retries it with
 * back-off and the next attempt resumes where this one stopped. A configuration or
 * authentication error is recorded once in sync_job_failures and logged once, and the job
 * completes: retrying would fail the same way. A worker shutting down abandons the job (the
 * engine retries it elsewhere); its committed pages stay.
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
      // The engine's abortPromise rejects when the stop grace ends; either way the job goes back.
      const abandon = () => { throw new Error('the worker is shutting down; the job is retried, resuming from its last committed page'); };
      const result = await Promise.race([runSync(options), helpers.abortPromise.then(abandon, abandon)]);
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
      if (!(e instanceof Error && e.message.startsWith('partial sync'))) {
        ctx.log.write({ type: 'job-error', ...job, code: e instanceof TradeledgerError ? e.code : 'INTERNAL', message: e instanceof Error ? e.message : String(e) });
      }
      throw e;
    }
  };
}
