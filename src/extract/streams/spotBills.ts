import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** X4 spot account bills: every balance change of the spot wallet. */
export const spotBills: HistoryStream = {
  kind: 'history',
  name: 'spotBills',
  endpoint: 'spotBills',
  table: 'spot_bills',
  key: ['bill_id'],
  partitions: () => single,
  spanDays: 90,
  limit: 500,
  horizonDays: undefined,
  mutable: false,
  timeField: 'cTime',
  idField: 'billId',
  readPage: arrayBySmallestId('billId'),
  demo: false,
  sub: true,
  columns: {
    bill_id: text('billId'), coin: text('coin'), group_type: text('groupType'), business_type: text('businessType'),
    size: num('size'), balance: num('balance'), fees: num('fees'), c_time: ms('cTime'),
  },
};
