import type { CrossMarginOrder } from '../../api/records/margin.js';
import type { SpotOrder } from '../../api/records/spot.js';
import type { DepositRecord, TransferRecord, WithdrawalRecord } from '../../api/records/wallet.js';
import type { HistoryRecords, HistoryResource } from '../world.js';
import { spotMarket } from './catalog.js';
import { mulText } from './decimalText.js';
import { spotFeeDetail } from './generators/spotFeeDetail.js';
import { feeOf, inPlatformCoin } from './generators/tradeAmounts.js';

/** Resources whose records can still change state. */
export const settleableResources: readonly HistoryResource[] = ['spotOrders', 'crossMarginOrders', 'deposits', 'withdrawals', 'transfers'];

function filledSpotOrder(o: SpotOrder, now: number): SpotOrder {
  const m = spotMarket(o.symbol);
  const places = m === undefined ? 8 : m.pricePlace + m.qtyPlace;
  const quoteVolume = mulText(o.size, o.price, places);
  const buy = o.side === 'buy';
  const fee = feeOf(buy ? o.size : quoteVolume, '0.0008');
  const quoteValue = buy ? mulText(fee, o.price, 12) : fee;
  const coin = buy ? (m?.base ?? '') : (m?.quote ?? '');
  return {
    ...o, status: 'filled', baseVolume: o.size, quoteVolume, priceAvg: o.price,
    feeDetail: spotFeeDetail('newOnly', coin, fee, inPlatformCoin(quoteValue, now)), uTime: String(now),
  };
}

/**
 * The settled version of an open record (live order filled, pending deposit or withdrawal
 * succeeded, Processing transfer Successful), with uTime moved to `now`; undefined when the
 * record is not open.
 *
 * @example
 * settleRecord('deposits', pendingDeposit, Date.now())?.status; // 'success'
 */
export function settleRecord<R extends HistoryResource>(resource: R, record: HistoryRecords[R], now: number): HistoryRecords[R] | undefined {
  switch (resource) {
    case 'spotOrders': {
      const o = record as SpotOrder;
      return o.status === 'live' || o.status === 'partially_filled' ? filledSpotOrder(o, now) as HistoryRecords[R] : undefined;
    }
    case 'crossMarginOrders': {
      const o = record as CrossMarginOrder;
      if (o.status !== 'live' && o.status !== 'partially_fill') return undefined;
      return { ...o, status: 'filled', size: o.baseSize, amount: o.baseSize, uTime: String(now) } as HistoryRecords[R];
    }
    case 'deposits': {
      const d = record as DepositRecord;
      return d.status === 'pending' ? { ...d, status: 'success', uTime: String(now) } as HistoryRecords[R] : undefined;
    }
    case 'withdrawals': {
      const w = record as WithdrawalRecord;
      if (w.status !== 'pending') return undefined;
      return { ...w, status: 'success', confirm: w.dest === 'on_chain' ? '12' : '0', uTime: String(now) } as HistoryRecords[R];
    }
    case 'transfers': {
      const t = record as TransferRecord;
      return t.status === 'Processing' ? { ...t, status: 'Successful' } as HistoryRecords[R] : undefined;
    }
    default:
      return undefined;
  }
}
