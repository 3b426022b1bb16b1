import type { WorkerUtils } from 'graphile-worker';
import { syncJobSpec, syncTaskName } from './syncJobSpec.js';
import type { SyncJobPayload } from './syncJobSpec.js';

/**
 * Adds one sync job per account, each in its account's queue under its job key (see
 * `syncJobSpec`): enqueueing an account whose job is still pending leaves one job, not two.
 * Returns the engine's job ids, in the accounts' order, each saying whether it was pending
 * already (the engine revised that job rather than adding one).
 *
 * @example
 * await enqueueSyncs(utils, [{ account: 'main', uid: '2000001117' }]);
 */
export async function enqueueSyncs(utils: Pick<WorkerUtils, 'addJob'>, jobs: readonly SyncJobPayload[]): Promise<{ id: string; alreadyQueued: boolean }[]> {
  const ids: { id: string; alreadyQueued: boolean }[] = [];
  for (const p of jobs) {
    const payload: SyncJobPayload = { account: p.account, uid: p.uid, ...(p.streams === undefined ? {} : { streams: [...p.streams] }) };
    const job = await utils.addJob(syncTaskName, payload, syncJobSpec(p));
    ids.push({ id: job.id, alreadyQueued: job.revision > 0 });
  }
  return ids;
}
