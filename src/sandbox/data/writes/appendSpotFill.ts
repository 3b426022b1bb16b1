import type { SpotOrder } from '../../../api/records/spot.js';
import { spotMarket } from '../catalog.js';
import { feeOf } from '../generators/tradeAmounts.js';
import type { SeriesBook } from '../seriesBook.js';

/**
 * Records a fill of `order` at now: `size` base coin for `amount` quote coin, the fee charged in
 * the received coin, and its spot bills. Used when an order placed or settled in the sandbox trades.
 *
 * @example
 * appendSpotFill(book, uid, order, '0.5', '49500', 'maker', Date.now());
 */
export function appendSpotFill(book: SeriesBook, uid: string, order: SpotOrder, size: string, amount: string, scope: 'maker' | 'taker', now: number): void {
  const m = spotMarket(order.symbol);
  const buy = order.side === 'buy';
  const fee = feeOf(buy ? size : amount, scope === 'maker' ? '0.0008' : '0.001');
  const { record } = book.append(uid, 'spotFills', 'all', now, (id, t) => ({
    userId: uid, symbol: order.symbol, orderId: order.orderId, tradeId: id.toString(), orderType: order.orderType, side: order.side,
    priceAvg: order.priceAvg, size, amount,
    feeDetail: { deduction: 'no', feeCoin: (buy ? m?.base : m?.quote) ?? '', totalDeductionFee: '0', totalFee: fee },
    tradeScope: scope, cTime: String(t), uTime: String(t),
  }));
  // Its base, quote and fee legs move the spot wallet: three bills at the same time.
  book.appendCounterLegs(uid, 'spotFills', record, Number(record.cTime));
}
