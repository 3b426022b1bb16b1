import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { single } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** X7 tax spot records: 30-day windows (configurable), 500 a page, 1 request/s. */
export const taxSpotRecords: HistoryStream = {
  kind: 'history',
  name: 'taxSpotRecords',
  endpoint: 'taxSpotRecords',
  table: 'tax_spot_records',
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
    id: text('id'), coin: text('coin'), spot_tax_type: text('spotTaxType'), amount: num('amount'),
    fee: num('fee'), total: num('total'), ts: ms('ts'),
  },
};
