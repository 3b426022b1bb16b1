import type { HistoryResource } from '../world.js';

/** The natural id field of each resource (the truth dump's key) and the time field queries use. */
export const resourceKeys: Readonly<Record<HistoryResource, { id: string; time: string }>> = {
  spotOrders: { id: 'orderId', time: 'cTime' },
  spotFills: { id: 'tradeId', time: 'cTime' },
  spotBills: { id: 'billId', time: 'cTime' },
  marginRecords: { id: 'id', time: 'ts' },
  crossMarginOrders: { id: 'orderId', time: 'cTime' },
  futuresOrders: { id: 'orderId', time: 'cTime' },
  futuresFills: { id: 'tradeId', time: 'cTime' },
  futuresBills: { id: 'billId', time: 'cTime' },
  planOrders: { id: 'orderId', time: 'cTime' },
  deposits: { id: 'orderId', time: 'cTime' },
  withdrawals: { id: 'orderId', time: 'cTime' },
  transfers: { id: 'transferId', time: 'ts' },
  taxSpotRecords: { id: 'id', time: 'ts' },
  taxFutureRecords: { id: 'id', time: 'ts' },
};
