import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/**
 * X3 withdrawal records: status changes after creation, so the stream is mutable; a withdrawal
 * still pending that the windows no longer reach is asked for by its orderId every run until final.
 */
export const withdrawals: HistoryStream = {
  kind: 'history',
  name: 'withdrawals',
  endpoint: 'withdrawals',
  table: 'withdrawals',
  key: ['order_id'],
  partitions: () => single,
  spanDays: undefined,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  timeField: 'cTime',
  idField: 'orderId',
  readPage: arrayBySmallestId('orderId'),
  recheckOpen: { by: 'id', endpoint: 'withdrawals', idParam: 'orderId' },
  demo: false,
  sub: true,
  columns: {
    order_id: text('orderId'), trade_id: text('tradeId'), client_oid: text('clientOid'), coin: text('coin'),
    type: text('type'), dest: text('dest'), chain: text('chain'), tag: text('tag'), status: text('status'),
    size: num('size'), fee: num('fee'), confirm: text('confirm'), from_address: text('fromAddress'),
    to_address: text('toAddress'), c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
