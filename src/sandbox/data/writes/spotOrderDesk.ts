import { Decimal } from 'decimal.js';
import type { SpotOrder } from '../../../api/records/spot.js';
import { priceMantissa, spotMarket, type SpotMarket } from '../catalog.js';
import { decimalText, mulText } from '../decimalText.js';
import { spotFeeDetail } from '../generators/spotFeeDetail.js';
import { feeOf, inPlatformCoin } from '../generators/tradeAmounts.js';
import { hashKey, recordRng } from '../rng.js';
import type { ChunkedSeries } from '../chunkedSeries.js';
import { fail, oneOf, positiveDecimal, required } from './writeChecks.js';
import type { WorldCore } from './worldCore.js';
import { appendSpotFill } from './appendSpotFill.js';

const HOUR = 3_600_000;
/** E1: a clientOid is idempotent for 6 hours while its order is unfilled (spec §8). */
const IDEMPOTENT_MS = 6 * HOUR;
/** How far back the desk looks for clientOids and open orders in generated history. */
const SCAN_BACK_MS = 7 * 24 * HOUR;

interface Book { scanned: number; clientOids: Map<string, number>; open: Set<number> }

const isOpen = (o: SpotOrder): boolean => o.status === 'live' || o.status === 'partially_filled';

/**
 * Spot order writes: E1/E17 placement with clientOid idempotency and self-trade prevention, and
 * E4 cancel-and-replace. Orders land in the account's spotOrders series at `now()`; a market
 * order fills at once and also leaves a spot fill.
 *
 * @example
 * const desk = new SpotOrderDesk(core);
 * desk.place(uid, { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '60000', size: '0.01' });
 */
export class SpotOrderDesk {
  private readonly books = new Map<string, Book>();

  constructor(private readonly core: WorldCore) {}

  place(uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string } {
    const symbol = required(order, 'symbol');
    const m = spotMarket(symbol) ?? fail('40034', 'symbol');
    const side = oneOf(required(order, 'side'), 'side', ['buy', 'sell'] as const);
    const orderType = oneOf(required(order, 'orderType'), 'orderType', ['limit', 'market'] as const);
    // force is required for limit orders and ignored for market orders (spec E1: "invalid when orderType is market").
    if (orderType === 'limit') oneOf(required(order, 'force'), 'force', ['gtc', 'post_only', 'fok', 'ioc'] as const);
    const price = orderType === 'limit' ? positiveDecimal(required(order, 'price'), 'price') : undefined;
    const size = positiveDecimal(required(order, 'size'), 'size');
    const stpMode = oneOf(order['stpMode'] ?? 'none', 'stpMode', ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'] as const);
    const series = this.core.book.get(uid, 'spotOrders', 'all');
    const book = this.bookOf(uid, series);
    const now = this.core.now();
    const clientOid = order['clientOid'];
    if (clientOid !== undefined && clientOid !== '') {
      const existing = book.clientOids.get(clientOid);
      if (existing !== undefined) {
        const o = series.at(existing);
        if (isOpen(o) && now - Number(o.cTime) <= IDEMPOTENT_MS) return { orderId: o.orderId, clientOid };
        fail('40017', `clientOid '${clientOid}' duplicates an earlier order; use a new clientOid`);
      }
    }
    const marketPrice = decimalText(priceMantissa(m, now), m.pricePlace);
    const crossing = [...book.open].filter((i) => {
      const o = series.at(i);
      if (!isOpen(o) || o.symbol !== symbol || o.side === side) return false;
      if (price === undefined) return true;
      return side === 'buy' ? new Decimal(price).gte(o.price) : new Decimal(price).lte(o.price);
    });
    const stp = crossing.length > 0 && stpMode !== 'none';
    if (stp && (stpMode === 'cancel_maker' || stpMode === 'cancel_both')) {
      for (const i of crossing) this.cancel(series, book, i, 'stp_cancel');
    }
    const takerCancelled = stp && (stpMode === 'cancel_taker' || stpMode === 'cancel_both');
    if (!takerCancelled) this.checkBalance(uid, m, side, orderType, price ?? marketPrice, size);
    const oid = clientOid !== undefined && clientOid !== '' ? clientOid : this.newClientOid(uid);
    const status = takerCancelled ? 'cancelled' : orderType === 'market' ? 'filled' : 'live';
    const { record, index } = this.core.book.append(uid, 'spotOrders', 'all', now, (id, t) =>
      this.newOrder(uid, m, id, t, oid, side, orderType, price ?? marketPrice, size, status, takerCancelled));
    book.clientOids.set(oid, index);
    if (status === 'live') book.open.add(index);
    book.scanned = series.size;
    if (status === 'filled') appendSpotFill(this.core.book, uid, record, record.baseVolume, record.quoteVolume, 'taker', now);
    return { orderId: record.orderId, clientOid: oid };
  }

  /** E4 item: cancels the order named by orderId or clientOid, then places its replacement. */
  cancelReplace(uid: string, item: Record<string, string | undefined>): { orderId: string; clientOid: string | null; success: 'success' | 'failure'; msg: string } {
    const symbol = required(item, 'symbol');
    const price = positiveDecimal(required(item, 'price'), 'price');
    const size = positiveDecimal(required(item, 'size'), 'size');
    const orderId = item['orderId'];
    const oldClientOid = item['clientOid'];
    if ((orderId === undefined || orderId === '') && (oldClientOid === undefined || oldClientOid === '')) fail('40019', 'orderId');
    const newClientOid = item['newClientOid'] === undefined || item['newClientOid'] === '' ? null : item['newClientOid'];
    const failure = (msg: string) => ({ orderId: orderId ?? '', clientOid: newClientOid, success: 'failure' as const, msg });
    const series = this.core.book.get(uid, 'spotOrders', 'all');
    const book = this.bookOf(uid, series);
    const index = orderId !== undefined && orderId !== '' ? series.indexOf(orderId) : book.clientOids.get(oldClientOid ?? '') ?? -1;
    if (index < 0) return failure('The order does not exist');
    const old = series.at(index);
    if (old.symbol !== symbol) return failure(`The order is on ${old.symbol}, not ${symbol}`);
    if (!isOpen(old)) return failure(`The order is ${old.status} and cannot be cancelled`);
    this.cancel(series, book, index, 'normal_cancel');
    // Spec §3: a newClientOid that repeats an earlier id leaves the old order cancelled and fails the new one.
    if (newClientOid !== null && book.clientOids.has(newClientOid)) return failure(`Duplicate clientOid '${newClientOid}'`);
    try {
      const placed = this.place(uid, { symbol, side: old.side, orderType: 'limit', force: 'gtc', price, size, clientOid: newClientOid ?? undefined });
      return { orderId: placed.orderId, clientOid: placed.clientOid, success: 'success', msg: '' };
    } catch (e) {
      return failure(e instanceof Error ? e.message : String(e));
    }
  }

  private cancel(series: ChunkedSeries<SpotOrder>, book: Book, index: number, reason: 'normal_cancel' | 'stp_cancel'): void {
    const o = series.at(index);
    series.replace(index, { ...o, status: 'cancelled', cancelReason: reason, uTime: String(this.core.now()) });
    book.open.delete(index);
  }

  private newOrder(uid: string, m: SpotMarket, id: bigint, t: number, clientOid: string, side: 'buy' | 'sell', orderType: 'limit' | 'market',
    price: string, size: string, status: SpotOrder['status'], stp: boolean): SpotOrder {
    const filled = status === 'filled';
    const marketBuy = orderType === 'market' && side === 'buy';
    const baseVolume = !filled ? '0' : marketBuy ? new Decimal(size).div(price).toDecimalPlaces(m.qtyPlace, Decimal.ROUND_DOWN).toFixed(m.qtyPlace) : size;
    const quoteVolume = !filled ? '0' : marketBuy ? size : mulText(size, price, m.pricePlace + m.qtyPlace);
    let feeDetail = '';
    if (filled) {
      const fee = feeOf(side === 'buy' ? baseVolume : quoteVolume, '0.001');
      const quoteValue = side === 'buy' ? mulText(fee, price, 12) : fee;
      feeDetail = spotFeeDetail('newOnly', side === 'buy' ? m.base : m.quote, fee, inPlatformCoin(quoteValue, t));
    }
    return {
      userId: uid, symbol: m.symbol, orderId: id.toString(), clientOid, price: orderType === 'market' ? '0' : price, size,
      orderType, side, status, priceAvg: filled ? price : '0', baseVolume, quoteVolume, enterPointSource: 'API',
      orderSource: orderType === 'market' ? 'market' : 'normal', feeDetail, cancelReason: stp ? 'stp_cancel' : '',
      cTime: String(t), uTime: String(t),
    };
  }

  /**
   * The spot wallet must hold what the order spends (the quote coin of a buy, the base coin of a
   * sell), or it is refused: a write never takes a balance below zero.
   */
  private checkBalance(uid: string, m: SpotMarket, side: 'buy' | 'sell', orderType: 'limit' | 'market', price: string, size: string): void {
    const coin = side === 'buy' ? m.quote : m.base;
    const need = side === 'sell' || orderType === 'market' ? new Decimal(size) : new Decimal(size).times(price);
    const have = this.core.book.spotBalance(uid, coin);
    if (need.gt(have)) fail('40017', `size: insufficient balance, the order needs ${need.toFixed()} ${coin} and the spot wallet holds ${have}`);
  }

  private newClientOid(uid: string): string {
    const r = recordRng(hashKey(this.core.seed, uid, 'clientOid'), this.core.nextSerial());
    return Array.from({ length: 4 }, () => r.u32().toString(16).padStart(8, '0')).join('');
  }

  /** The desk's index of clientOids and open orders, brought up to date with the series. */
  private bookOf(uid: string, series: ChunkedSeries<SpotOrder>): Book {
    let book = this.books.get(uid);
    if (book === undefined) {
      const from = Math.min(series.firstAtOrAfter(this.core.now() - SCAN_BACK_MS), Math.max(0, series.size - 8));
      book = { scanned: from, clientOids: new Map(), open: new Set() };
      this.books.set(uid, book);
    }
    for (let i = book.scanned; i < series.size; i++) {
      const o = series.at(i);
      book.clientOids.set(o.clientOid, i);
      if (isOpen(o)) book.open.add(i);
    }
    book.scanned = series.size;
    return book;
  }
}
