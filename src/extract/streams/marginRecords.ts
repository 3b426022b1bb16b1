import type { HistoryStream } from '../streamDef.js';
import { arrayBySmallestId } from '../pageReaders.js';
import { byMarginType } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** E5 margin transaction records: 30-day windows, 500 a page, crossed and isolated. */
export const marginRecords: HistoryStream = {
  kind: 'history',
  name: 'marginRecords',
  endpoint: 'marginRecords',
  table: 'margin_records',
  key: ['margin_type', 'id'],
  partitions: () => byMarginType,
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
    id: text('id'), coin: text('coin'), symbol: text('symbol'), margin_tax_type: text('marginTaxType'),
    amount: num('amount'), fee: num('fee'), total: num('total'), ts: ms('ts'),
  },
};
