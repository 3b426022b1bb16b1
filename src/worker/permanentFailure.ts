import type { Kysely } from 'kysely';
import type { Database } from '../db/databaseTypes.js';
import { TradeledgerError } from '../errors.js';

/**
 * Whether a sync job's failure is for good: a configuration or authentication error (wrong key
 * or passphrase, IP not whitelisted, clock off, account gone from the config) fails the same way
 * on every attempt, so the engine must not retry it. A sync that another process is running on
 * the account (SYNC_RUNNING) is 'config' too but passes, so it is retried.
 *
 * @example
 * isPermanent(new TradeledgerError('40012', 'bad passphrase', { kind: 'auth' })); // true
 */
export function isPermanent(e: unknown): e is TradeledgerError {
  return e instanceof TradeledgerError && (e.kind === 'config' || e.kind === 'auth') && !e.retryable;
}

/**
 * Records a job's permanent failure once, for `tradeledger status`.
 *
 * @example
 * await recordPermanentFailure(db, { uid, account: 'client-007', jobId: '42' }, err);
 */
export async function recordPermanentFailure(db: Kysely<Database>, job: { uid: string; account: string; jobId: string }, e: TradeledgerError): Promise<void> {
  const message = e.hint ? `${e.message} (fix: ${e.hint})` : e.message;
  await db.insertInto('sync_job_failures').values({ account_uid: job.uid, account_name: job.account, job_id: job.jobId, code: e.code, message }).execute();
}
