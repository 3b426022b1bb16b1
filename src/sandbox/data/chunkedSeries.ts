import type { HistoryQuery, Series } from '../world.js';
import { ListChunk, type Chunk } from './chunk.js';
import { FieldColumn } from './fieldColumn.js';

/**
 * One account's series of one resource: lazy chunks of generated history, list chunks of written
 * records, and overrides for records that changed (settled, cancelled). Index order, id order and
 * time order agree, so every query is two binary searches and a walk down.
 *
 * @example
 * const s = new ChunkedSeries<Rec>();
 * s.addChunk(lazyChunk({ ... }));
 * s.query({ startTime, endTime, limit: 100 }); // newest first
 */
export class ChunkedSeries<T> implements Series<T> {
  private readonly chunks: Chunk<T>[] = [];
  private readonly offsets: number[] = [];
  private readonly overrides = new Map<number, T>();
  /** What filtered queries learnt about their fields, to skip known misses next time. */
  private readonly columns = new Map<string, FieldColumn>();
  private total = 0;

  get size(): number {
    return this.total;
  }

  addChunk(chunk: Chunk<T>): void {
    if (chunk.count === 0) return;
    this.chunks.push(chunk);
    this.offsets.push(this.total);
    this.total += chunk.count;
  }

  /** Appends one written record; its time and id must not be below the last record's. */
  append(record: T, time: number, id: bigint): number {
    let last = this.chunks[this.chunks.length - 1];
    if (!(last instanceof ListChunk)) {
      last = new ListChunk<T>();
      this.chunks.push(last);
      this.offsets.push(this.total);
    }
    (last as ListChunk<T>).push(record, time, id);
    return this.total++;
  }

  /** Replaces record i (a status change); the original stays derivable from its chunk. */
  replace(index: number, record: T): void {
    this.overrides.set(index, record);
    for (const column of this.columns.values()) column.forget(index);
  }

  timeAt(i: number): number {
    const c = this.locate(i);
    return this.chunks[c]!.timeAt(i - this.offsets[c]!);
  }

  idAt(i: number): bigint {
    const c = this.locate(i);
    return this.chunks[c]!.idAt(i - this.offsets[c]!);
  }

  at(i: number): T {
    if (this.overrides.size > 0) {
      const o = this.overrides.get(i);
      if (o !== undefined) return o;
    }
    const c = this.locate(i);
    return this.chunks[c]!.recordAt(i - this.offsets[c]!);
  }

  /** Record i as generated (ignoring overrides), or undefined when a write put it there. */
  generatedAt(i: number): T | undefined {
    const c = this.locate(i);
    const chunk = this.chunks[c]!;
    return chunk instanceof ListChunk ? undefined : chunk.recordAt(i - this.offsets[c]!);
  }

  /** True when record i was placed from another series (a counter leg: never open). */
  isPlaced(i: number): boolean {
    const c = this.locate(i);
    return this.chunks[c]!.isPlaced?.(i - this.offsets[c]!) ?? false;
  }

  lastTime(): number {
    return this.total === 0 ? Number.NEGATIVE_INFINITY : this.timeAt(this.total - 1);
  }

  lastId(): bigint {
    return this.total === 0 ? -1n : this.idAt(this.total - 1);
  }

  /** First index whose time is >= t. */
  firstAtOrAfter(t: number): number {
    return this.lowerBound((i) => this.timeAt(i) < t);
  }

  /** Index of the record with this id, or -1. */
  indexOf(id: string): number {
    if (!/^\d{1,30}$/.test(id)) return -1;
    const want = BigInt(id);
    const i = this.lowerBound((k) => this.idAt(k) < want);
    return i < this.total && this.idAt(i) === want ? i : -1;
  }

  get(id: string): T | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.at(i);
  }

  query(q: HistoryQuery<T>): T[] {
    let hi = this.total;
    if (q.endTime !== undefined) hi = Math.min(hi, this.firstAtOrAfter(q.endTime));
    if (q.idLessThan !== undefined) {
      const cut = q.idLessThan;
      hi = Math.min(hi, this.lowerBound((k) => this.idAt(k) < cut));
    }
    const lo = q.startTime === undefined ? 0 : this.firstAtOrAfter(q.startTime);
    const out: T[] = [];
    const where = q.where === undefined || q.where.length === 0 ? undefined : q.where;
    const columns = where === undefined ? undefined : where.map(([field]) => this.columnOf(field));
    for (let i = hi - 1; i >= lo && out.length < q.limit; i--) {
      if (where !== undefined && this.knownToFail(where, columns!, i)) continue;
      const r = this.at(i);
      if (where !== undefined) {
        for (let c = 0; c < where.length; c++) columns![c]!.remember(i, (r as Record<string, unknown>)[where[c]![0]], this.total);
      }
      if (q.filter === undefined || q.filter(r)) out.push(r);
    }
    return out;
  }

  private columnOf(field: string): FieldColumn {
    let column = this.columns.get(field);
    if (column === undefined) {
      column = new FieldColumn();
      this.columns.set(field, column);
    }
    return column;
  }

  private knownToFail(where: readonly (readonly [string, string])[], columns: FieldColumn[], i: number): boolean {
    for (let c = 0; c < where.length; c++) if (columns[c]!.knownOther(i, where[c]![1])) return true;
    return false;
  }

  *all(): Iterable<T> {
    for (let i = 0; i < this.total; i++) yield this.at(i);
  }

  /** The index of the chunk holding record i (no tuple: this runs several times per record served). */
  private locate(i: number): number {
    if (i < 0 || i >= this.total) throw new RangeError(`record index ${i} out of range`);
    let lo = 0;
    let hi = this.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.offsets[mid] ?? 0) <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private lowerBound(isBefore: (i: number) => boolean): number {
    let lo = 0;
    let hi = this.total;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isBefore(mid)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
