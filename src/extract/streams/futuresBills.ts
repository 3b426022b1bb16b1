import type { HistoryStream } from '../streamDef.js';
import { listWithCursor } from '../pageReaders.js';
import { byProductType } from '../partitions.js';
import { ms, num, text } from '../../load/column.js';

/** X6 futures account bills: funding fees, realized PnL, fees; 30-day windows. */
export const futuresBills: HistoryStream = {
  kind: 'history',
  name: 'futuresBills',
  endpoint: 'futuresBills',
  table: 'futures_bills',
  key: ['product_type', 'bill_id'],
  partitions: byProductType,
  spanDays: 30,
  limit: 100,
  horizonDays: undefined,
  mutable: false,
  timeField: 'cTime',
  idField: 'billId',
  readPage: listWithCursor(['bills', 'resultList'], 'endId', 'billId'),
  demo: true,
  sub: true,
  columns: {
    bill_id: text('billId'), symbol: text('symbol'), coin: text('coin'), business_type: text('businessType'),
    amount: num('amount'), fee: num('fee'), fee_by_coupon: num('feeByCoupon'), balance: num('balance'), c_time: ms('cTime'),
  },
};
