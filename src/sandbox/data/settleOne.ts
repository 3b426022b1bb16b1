import { Decimal } from 'decimal.js';
import type { SpotOrder } from '../../api/records/spot.js';
import type { HistoryResource } from '../world.js';
import { mulText } from './decimalText.js';
import type { SeriesBook } from './seriesBook.js';
import { settleRecord } from './settleRecord.js';
import { appendSpotFill } from './writes/appendSpotFill.js';

/**
 * Settles record `index` of a series at `now`; a spot order that fills also leaves a fill for
 * the volume it had left. Returns false when the record was not open.
 *
 * @example
 * settleOne(book, uid, 'deposits', 'all', 17, Date.now());
 */
export function settleOne(book: SeriesBook, uid: string, resource: HistoryResource, partition: string, index: number, now: number): boolean {
  const s = book.get(uid, resource, partition);
  const before = s.at(index);
  const settled = settleRecord(resource, before, now);
  if (settled === undefined) return false;
  s.replace(index, settled);
  // A transfer or internal withdrawal that completes shows on its other side now.
  book.appendCounterLegs(uid, resource, settled, now);
  if (resource === 'spotOrders') {
    const o = settled as SpotOrder;
    const rest = new Decimal(o.baseVolume).minus((before as SpotOrder).baseVolume);
    if (rest.gt(0)) appendSpotFill(book, uid, o, rest.toFixed(), mulText(rest.toFixed(), o.price, 12), 'maker', now);
  }
  return true;
}
