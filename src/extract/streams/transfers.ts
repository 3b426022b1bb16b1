import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** E19 main/sub transfers initiated by the account: 90-day windows, mutable status. */
export const transfers: HistoryStream = {
  kind: 'history',
  name: 'transfers',
  endpoint: 'transfers',
  table: 'transfers',
  key: ['transfer_id'],
  partitions: () => single,
  spanDays: 90,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  timeField: 'ts',
  idField: 'transferId',
  readPage: arrayBySmallestId('transferId'),
  demo: false,
  sub: true,
  columns: {
    transfer_id: text('transferId'), client_oid: text('clientOid'), coin: text('coin'), status: text('status'),
    from_type: text('fromType'), to_type: text('toType'), from_user_id: text('fromUserId'),
    to_user_id: text('toUserId'), size: num('size'), ts: ms('ts'),
  },
};
