import type { HistoryStream, SnapshotStream, Stream } from './streamDef.js';
import { spotOrders } from './streams/spotOrders.js';
import { spotFills } from './streams/spotFills.js';
import { spotBills } from './streams/spotBills.js';
import { marginRecords } from './streams/marginRecords.js';
import { crossMarginOrders } from './streams/crossMarginOrders.js';
import { futuresOrders } from './streams/futuresOrders.js';
import { futuresFills } from './streams/futuresFills.js';
import { futuresBills } from './streams/futuresBills.js';
import { planOrders } from './streams/planOrders.js';
import { deposits } from './streams/deposits.js';
import { withdrawals } from './streams/withdrawals.js';
import { transfers } from './streams/transfers.js';
import { taxSpotRecords } from './streams/taxSpotRecords.js';
import { taxFutureRecords } from './streams/taxFutureRecords.js';
import { futuresAccounts } from './streams/futuresAccounts.js';
import { positions } from './streams/positions.js';
import { singlePositions } from './streams/singlePositions.js';
import { subAccounts } from './streams/subAccounts.js';
import { subAccountApiKeys } from './streams/subAccountApiKeys.js';
import { demoContracts } from './streams/demoContracts.js';
import { prices } from './streams/prices.js';

/** Every history stream, in the order a plan lists them. */
export const historyStreams: readonly HistoryStream[] = [
  spotOrders, spotFills, spotBills, marginRecords, crossMarginOrders, futuresOrders, futuresFills, futuresBills,
  planOrders, deposits, withdrawals, transfers, taxSpotRecords, taxFutureRecords,
];

/** Every snapshot stream. subAccounts runs before subAccountApiKeys, which needs its UIDs. */
export const snapshotStreams: readonly SnapshotStream[] = [futuresAccounts, positions, singlePositions, subAccounts, subAccountApiKeys, demoContracts];

/**
 * All streams, for --streams and status; the derived one (prices) last.
 *
 * @example
 * allStreams.map((s) => s.name) // ['spotOrders', 'spotFills', ...]
 */
export const allStreams: readonly Stream[] = [...historyStreams, ...snapshotStreams, prices];
