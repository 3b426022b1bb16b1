import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** X8 tax future records: 30-day windows (configurable), 500 a page, 1 request/s. */
export const taxFutureRecords: HistoryStream = {
  kind: 'history',
  name: 'taxFutureRecords',
  endpoint: 'taxFutureRecords',
  table: 'tax_future_records',
  key: ['id'],
  partitions: () => single,
  spanDays: 30,
  limit: 500,
  horizonDays: undefined,
  mutable: false,
  timeField: 'ts',
  idField: 'id',
  readPage: arrayBySmallestId('id'),
  demo: false,
  sub: true,
  columns: {
    id: text('id'), symbol: text('symbol'), margin_coin: text('marginCoin'), future_tax_type: text('futureTaxType'),
    amount: num('amount'), fee: num('fee'), ts: ms('ts'),
  },
};
