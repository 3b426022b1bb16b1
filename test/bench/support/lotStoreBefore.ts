// lotStore.ts as it was on main at f7a9080, before the engine computed in scaled integers (issue 24
// item 5), kept for the paired benchmark and the identity test (see matchersBefore.ts).
import { proRata, ZERO } from '../../../src/gains/gainsDecimal.js';
import type { GainsDecimal } from '../../../src/gains/gainsDecimal.js';

/** One open purchase (or the part of it not yet matched). */
export interface Lot {
  quantity: GainsDecimal;
  cost: GainsDecimal;
  ts: number;
  day: string;
  ref: string;
}

/** A part taken out of a lot by a disposal or a move. */
export interface LotPart {
  quantity: GainsDecimal;
  cost: GainsDecimal;
  ts: number;
  /** null for a share of an average-cost pool. */
  day: string | null;
  ref: string;
}

/** The open lots of one asset in one pool, handed out in a method's order. */
export interface LotStore {
  add(lot: Lot): void;
  /** Takes up to `quantity`, in the store's order; returns what it took (maybe less). */
  take(quantity: GainsDecimal): LotPart[];
  /**
   * Takes up to `quantity` from the lots acquired by ledger row `ref` (several after a split or a
   * move), oldest first; returns what it took (maybe less). Only the ordered stores have it:
   * specific identification is a US (FIFO) choice.
   */
  takeRef?(ref: string, quantity: GainsDecimal): LotPart[];
  quantity(): GainsDecimal;
  /** The open lots, for the report of holdings. */
  lots(): LotPart[];
}

/**
 * The store for a matching method: FIFO (oldest first), LIFO (newest first), HIFO (highest unit
 * cost first) or average (one pool, cost shared pro rata).
 *
 * @example
 * const s = lotStore('fifo'); s.add(lot); s.take(new GainsDecimal('0.5'));
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
function cut(lot: Lot, wanted: GainsDecimal): LotPart {
  if (wanted.gte(lot.quantity)) {
    const part = { quantity: lot.quantity, cost: lot.cost, ts: lot.ts, day: lot.day, ref: lot.ref };
    lot.quantity = ZERO;
    lot.cost = ZERO;
    return part;
  }
  const cost = proRata(lot.cost, wanted, lot.quantity);
  lot.quantity = lot.quantity.minus(wanted);
  lot.cost = lot.cost.minus(cost);
  return { quantity: wanted, cost, ts: lot.ts, day: lot.day, ref: lot.ref };
}

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

  take(quantity: GainsDecimal): LotPart[] {
    const parts: LotPart[] = [];
    let left = quantity;
    while (left.gt(0) && this.head < this.items.length) {
      const lot = this.newestFirst ? this.items[this.items.length - 1]! : this.items[this.head]!;
      const part = cut(lot, left);
      parts.push(part);
      // A lot left non-empty means the wanted quantity is met.
      if (!lot.quantity.isZero()) break;
      if (this.newestFirst) this.items.pop(); else this.head++;
      left = left.minus(part.quantity);
    }
    // Drop the consumed front now and then, so a long FIFO run does not keep every lot.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return parts;
  }

  takeRef(ref: string, quantity: GainsDecimal): LotPart[] {
    const parts: LotPart[] = [];
    let left = quantity;
    for (let i = this.head; i < this.items.length && left.gt(0); i++) {
      const lot = this.items[i]!;
      if (lot.ref !== ref || lot.quantity.isZero()) continue;
      const part = cut(lot, left);
      parts.push(part);
      left = left.minus(part.quantity);
    }
    // Emptied lots leave the list, so FIFO and LIFO never hand out a zero part.
    if (parts.length > 0) {
      const rest = this.items.slice(this.head).filter((l) => !l.quantity.isZero());
      this.items = rest;
      this.head = 0;
    }
    return parts;
  }

  // Only the US switch to wallets asks, once: summed then rather than kept on every change.
  quantity(): GainsDecimal { return this.items.slice(this.head).reduce((s, l) => s.plus(l.quantity), ZERO); }

  lots(): LotPart[] {
    return this.items.slice(this.head).map((l) => ({ quantity: l.quantity, cost: l.cost, ts: l.ts, day: l.day, ref: l.ref }));
  }
}

// A binary max-heap on unit cost (ties: the older lot first).
class HighestCostLots implements LotStore {
  private heap: { lot: Lot; unit: GainsDecimal }[] = [];

  add(lot: Lot): void {
    const unit = lot.quantity.isZero() ? ZERO : lot.cost.div(lot.quantity);
    this.heap.push({ lot, unit });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent]!, this.heap[i]!];
      i = parent;
    }
  }

  take(quantity: GainsDecimal): LotPart[] {
    const parts: LotPart[] = [];
    let left = quantity;
    while (left.gt(0) && this.heap.length > 0) {
      const top = this.heap[0]!.lot;
      const part = cut(top, left);
      parts.push(part);
      if (!top.quantity.isZero()) break;
      this.popTop();
      left = left.minus(part.quantity);
    }
    return parts;
  }

  quantity(): GainsDecimal { return this.heap.reduce((s, x) => s.plus(x.lot.quantity), ZERO); }

  lots(): LotPart[] {
    return this.heap.map(({ lot: l }) => ({ quantity: l.quantity, cost: l.cost, ts: l.ts, day: l.day, ref: l.ref }));
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    const c = x.unit.cmp(y.unit);
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
    this.pool.quantity = this.pool.quantity.plus(lot.quantity);
    this.pool.cost = this.pool.cost.plus(lot.cost);
  }

  take(quantity: GainsDecimal): LotPart[] {
    if (this.pool.quantity.isZero()) return [];
    const part = cut(this.pool, quantity);
    return [{ ...part, day: null, ref: 'pool' }];
  }

  quantity(): GainsDecimal { return this.pool.quantity; }

  lots(): LotPart[] {
    return this.pool.quantity.isZero() ? [] : [{ quantity: this.pool.quantity, cost: this.pool.cost, ts: 0, day: null, ref: 'pool' }];
  }
}

