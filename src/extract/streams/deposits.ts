import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/**
 * E20 deposit records: status moves pending -> success/fail, so the stream is mutable; a deposit
 * still pending that the windows no longer reach is asked for by its orderId every run until final.
 */
export const deposits: HistoryStream = {
  kind: 'history',
  name: 'deposits',
  endpoint: 'deposits',
  table: 'deposits',
  key: ['order_id'],
  partitions: () => single,
  spanDays: undefined,
  limit: 100,
  horizonDays: undefined,
  mutable: true,
  timeField: 'cTime',
  idField: 'orderId',
  readPage: arrayBySmallestId('orderId'),
  recheckOpen: { by: 'id', endpoint: 'deposits', idParam: 'orderId' },
  demo: false,
  sub: true,
  columns: {
    order_id: text('orderId'), trade_id: text('tradeId'), coin: text('coin'), type: text('type'), dest: text('dest'),
    chain: text('chain'), status: text('status'), size: num('size'), from_address: text('fromAddress'),
    to_address: text('toAddress'), c_time: ms('cTime'), u_time: ms('uTime'),
  },
};
