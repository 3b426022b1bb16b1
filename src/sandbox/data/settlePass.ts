import type { HistoryResource } from '../world.js';
import { mix } from './rng.js';
import { OPEN_WINDOW_MS, type SeriesBook } from './seriesBook.js';
import { settleOne } from './settleOne.js';
import { settleableResources } from './settleRecord.js';

/**
 * The settling half of `advance`: open records up to `oldNow` settle, every one older than the
 * open window for sure and younger ones with probability 1/2 (deterministic per advance).
 *
 * @example
 * settlePass(book, oldNow, newNow, 1);
 */
export function settlePass(book: SeriesBook, oldNow: number, newNow: number, round: number): void {
  for (const e of book.all()) {
    if (!settleableResources.includes(e.resource)) continue;
    const s = e.series;
    const end = s.firstAtOrAfter(oldNow + 1);
    // The open window, and at least the last 8 generated records: a sparse series keeps its
    // last ones open however old they are. Counter legs placed in between are never open.
    let from = Math.min(s.firstAtOrAfter(oldNow - OPEN_WINDOW_MS), end);
    for (let i = end - 1, own = 0; i >= 0 && own < 8; i--) {
      if (!s.isPlaced(i)) own++;
      from = Math.min(from, i);
    }
    for (let i = from; i < end; i++) {
      const t = s.timeAt(i);
      if (t >= newNow - OPEN_WINDOW_MS && (mix(Number(s.idAt(i) % 0xffff_ffffn), round) & 1) === 0) continue;
      settleOne(book, e.uid, e.resource as HistoryResource, e.partition, i, newNow);
    }
  }
}
