import type { HistoryStream, Partition } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/**
 * E19 main/sub transfers initiated by the account: 90-day windows, mutable status. Without
 * `subUid` E19 lists only the transfers made from the caller's own account, so a main account
 * also asks sub by sub (`subUid`) for the transfers it made out of each sub-account: one
 * partition per sub-account (keyed by its UID) beside its own ('all'). The record's id is the
 * key, so a transfer seen under two partitions is stored once.
 */
export const transfers: HistoryStream = {
  kind: 'history',
  name: 'transfers',
  endpoint: 'transfers',
  table: 'transfers',
  key: ['transfer_id'],
  partitions: async (ctx) => (ctx.main ? [...single, ...bySubAccount(await ctx.subAccountUids())] : single),
  spanDays: 90,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  timeField: 'ts',
  idField: 'transferId',
  readPage: arrayBySmallestId('transferId'),
  // E19 answers no transfer by its id: a transfer still Processing is read again at its moment.
  recheckOpen: { by: 'time' },
  demo: false,
  sub: true,
  columns: {
    transfer_id: text('transferId'), client_oid: text('clientOid'), coin: text('coin'), status: text('status'),
    from_type: text('fromType'), to_type: text('toType'), from_user_id: text('fromUserId'),
    to_user_id: text('toUserId'), size: num('size'), ts: ms('ts'),
  },
};

function bySubAccount(uids: readonly string[]): Partition[] {
  return uids.map((uid) => ({ key: uid, params: { subUid: uid }, columns: {} }));
}
