import { cmp, divide, isZero, proRata, S_ZERO, sub, add } from './scaledDecimal.js';
import type { Scaled } from './scaledDecimal.js';

// Amounts are scaled integers (scaledDecimal.ts), with GainsDecimal's exact results.
const ZERO = S_ZERO;

/** One open purchase (or the part of it not yet matched). */
export interface Lot {
  quantity: Scaled;
  cost: Scaled;
  ts: number;
  day: string;
  ref: string;
}

/**
 * A lot as an acquisition makes it. A class rather than an object literal: V8 counts how many
 * objects of each literal outlive a scavenge and, above a share, allocates every later one in
 * the old generation; lots mostly live about one scavenge, so they would die there and be
 * collected by the slower mark-compact, and every amount a lot points to would be kept from
 * the young generation's quick collection (the us engine run promoted 300 MB instead of 180).
 */
export class OpenLot implements Lot {
  constructor(public quantity: Scaled, public cost: Scaled, public ts: number, public day: string, public ref: string) {}
}

/** A part taken out of a lot by a disposal or a move. */
export interface LotPart {
  quantity: Scaled;
  cost: Scaled;
  ts: number;
  /** null for a share of an average-cost pool. */
  day: string | null;
  ref: string;
}

/** The open lots of one asset in one pool, handed out in a method's order. */
export interface LotStore {
  add(lot: Lot): void;
  /** Takes up to `quantity`, in the store's order; returns what it took (maybe less). */
  take(quantity: Scaled): LotPart[];
  /**
   * Takes up to `quantity` from the lots acquired by ledger row `ref` (several after a split or a
   * move), oldest first; returns what it took (maybe less). Only the ordered stores have it:
   * specific identification is a US (FIFO) choice.
   */
  takeRef?(ref: string, quantity: Scaled): LotPart[];
  quantity(): Scaled;
  /** The open lots, for the report of holdings. */
  lots(): LotPart[];
}

/**
 * The store for a matching method: FIFO (oldest first), LIFO (newest first), HIFO (highest unit
 * cost first) or average (one pool, cost shared pro rata).
 *
 * @example
 * const s = lotStore('fifo'); s.add(lot); s.take(fromDecimal(new GainsDecimal('0.5')));
 */
export function lotStore(method: 'fifo' | 'lifo' | 'hifo' | 'average'): LotStore {
  switch (method) {
    case 'fifo': return new OrderedLots(false);
    case 'lifo': return new OrderedLots(true);
    case 'hifo': return new HighestCostLots();
    case 'average': return new AveragePool();
  }
}

// Takes `wanted` out of one lot, shrinking it in place; the cost share is pro rata, rounded once
// (proRata), and the lot keeps the rest of its cost exactly.
function cut(lot: Lot, wanted: Scaled): LotPart {
  if (cmp(wanted, lot.quantity) >= 0) {
    const part = { quantity: lot.quantity, cost: lot.cost, ts: lot.ts, day: lot.day, ref: lot.ref };
    lot.quantity = ZERO;
    lot.cost = ZERO;
    return part;
  }
  return cutPart(lot, wanted);
}

// cut() for 0 < wanted < the lot's quantity.
function cutPart(lot: Lot, wanted: Scaled): LotPart {
  const cost = proRata(lot.cost, wanted, lot.quantity);
  lot.quantity = sub(lot.quantity, wanted);
  lot.cost = sub(lot.cost, cost);
  return new OpenLot(wanted, cost, lot.ts, lot.day, lot.ref);
}

// What a FIFO slot before `head` holds once its lot is used up.
const SPENT: Lot = new OpenLot(ZERO, ZERO, 0, '', '');

// Lots kept sorted by time; FIFO takes from the front, LIFO from the back. Moved-in lots can be
// older than those already here, so an out-of-order add is inserted at its place.
class OrderedLots implements LotStore {
  private items: Lot[] = [];
  private head = 0;
  constructor(private readonly newestFirst: boolean) {}

  add(lot: Lot): void {
    const last = this.items[this.items.length - 1];
    if (!last || last.ts <= lot.ts) { this.items.push(lot); return; }
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid]!.ts <= lot.ts) lo = mid + 1; else hi = mid;
    }
    this.items.splice(lo, 0, lot);
  }

  take(quantity: Scaled): LotPart[] {
    // Nearly every disposal takes one or two parts: those are returned as arrays of their length
    // (an array grown by push keeps room for 16 more), the rest collected as it comes.
    let first: LotPart | undefined;
    let second: LotPart | undefined;
    let more: LotPart[] | undefined;
    let count = 0;
    let left = quantity;
    while (left.m > 0 && this.head < this.items.length) {
      const lot = this.newestFirst ? this.items[this.items.length - 1]! : this.items[this.head]!;
      const c = cmp(left, lot.quantity);
      // Part of the lot meets the wanted quantity; or all of it, and the lot leaves the store and
      // is itself the part (nothing changes it after). The spent slot lets go of it at once, so
      // it dies young instead of waiting for the compaction below in the old generation (a
      // quarter of the run's time was scavenges).
      let part: LotPart;
      if (c < 0) part = cutPart(lot, left);
      else {
        if (this.newestFirst) this.items.pop(); else this.items[this.head++] = SPENT;
        part = lot;
      }
      if (count === 0) first = part; else if (count === 1) second = part; else if (count === 2) more = [first!, second!, part]; else more!.push(part);
      count++;
      if (c <= 0) break;
      left = sub(left, lot.quantity);
    }
    // Drop the consumed front now and then, so a long FIFO run does not keep every lot.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return count === 0 ? [] : count === 1 ? [first!] : count === 2 ? [first!, second!] : more!;
  }

  takeRef(ref: string, quantity: Scaled): LotPart[] {
    const parts: LotPart[] = [];
    let left = quantity;
    for (let i = this.head; i < this.items.length && left.m > 0; i++) {
      const lot = this.items[i]!;
      if (lot.ref !== ref || isZero(lot.quantity)) continue;
      const part = cut(lot, left);
      parts.push(part);
      left = sub(left, part.quantity);
    }
    // Emptied lots leave the list, so FIFO and LIFO never hand out a zero part.
    if (parts.length > 0) {
      const rest = this.items.slice(this.head).filter((l) => !isZero(l.quantity));
      this.items = rest;
      this.head = 0;
    }
    return parts;
  }

  // Only the US switch to wallets asks, once: summed then rather than kept on every change.
  quantity(): Scaled { return this.items.slice(this.head).reduce((s, l) => add(s, l.quantity), ZERO); }

  lots(): LotPart[] {
    return this.items.slice(this.head).map((l) => ({ quantity: l.quantity, cost: l.cost, ts: l.ts, day: l.day, ref: l.ref }));
  }
}

// A binary max-heap on unit cost (ties: the older lot first).
class HighestCostLots implements LotStore {
  private heap: { lot: Lot; unit: Scaled }[] = [];

  add(lot: Lot): void {
    // The unit cost to 60 significant digits, as decimal.js divided it: the same ties.
    const unit = isZero(lot.quantity) ? ZERO : divide(lot.cost, lot.quantity);
    this.heap.push({ lot, unit });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent]!, this.heap[i]!];
      i = parent;
    }
  }

  take(quantity: Scaled): LotPart[] {
    const parts: LotPart[] = [];
    let left = quantity;
    while (left.m > 0 && this.heap.length > 0) {
      const top = this.heap[0]!.lot;
      const part = cut(top, left);
      parts.push(part);
      if (!isZero(top.quantity)) break;
      this.popTop();
      left = sub(left, part.quantity);
    }
    return parts;
  }

  quantity(): Scaled { return this.heap.reduce((s, x) => add(s, x.lot.quantity), ZERO); }

  lots(): LotPart[] {
    return this.heap.map(({ lot: l }) => ({ quantity: l.quantity, cost: l.cost, ts: l.ts, day: l.day, ref: l.ref }));
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    const c = cmp(x.unit, y.unit);
    return c > 0 || (c === 0 && x.lot.ts < y.lot.ts);
  }

  private popTop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < this.heap.length && this.before(l, best)) best = l;
      if (r < this.heap.length && this.before(r, best)) best = r;
      if (best === i) return;
      [this.heap[i], this.heap[best]] = [this.heap[best]!, this.heap[i]!];
      i = best;
    }
  }
}

// One pool: quantity and total cost; a part carries the pool's average cost.
class AveragePool implements LotStore {
  private pool: Lot = { quantity: ZERO, cost: ZERO, ts: 0, day: '', ref: '' };

  add(lot: Lot): void {
    this.pool.quantity = add(this.pool.quantity, lot.quantity);
    this.pool.cost = add(this.pool.cost, lot.cost);
  }

  take(quantity: Scaled): LotPart[] {
    if (isZero(this.pool.quantity)) return [];
    const part = cut(this.pool, quantity);
    return [{ ...part, day: null, ref: 'pool' }];
  }

  quantity(): Scaled { return this.pool.quantity; }

  lots(): LotPart[] {
    return isZero(this.pool.quantity) ? [] : [{ quantity: this.pool.quantity, cost: this.pool.cost, ts: 0, day: null, ref: 'pool' }];
  }
}

