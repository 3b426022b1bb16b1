import { mix2 } from './rng.js';

/**
 * A run of records inside one series. Lazy chunks compute record j from j alone (that is how a
 * 1M-record world fits in memory); list chunks hold records created by writes.
 */
export interface Chunk<T> {
  readonly count: number;
  timeAt(j: number): number;
  idAt(j: number): bigint;
  recordAt(j: number): T;
  /** True for a record placed from another series (a counter leg, never open); absent: none are. */
  isPlaced?(j: number): boolean;
}

/** Ids are `time * ID_PER_MS + salt + k`, so they grow with time and look like the exchange's 19-digit ids. */
export const ID_PER_MS = 1_000_000n;

// Offsets inside a group of four records: some groups share a timestamp, some do not.
const groupPatterns: readonly (readonly number[])[] = [[0, 0, 1, 2], [0, 1, 2, 3], [0, 0, 0, 1], [0, 1, 1, 2]];

export interface LazyChunkSpec<T> {
  count: number;
  /** First record time (inclusive). */
  start: number;
  /** Last allowed record time (inclusive). */
  end: number;
  /** rng key of this chunk; also picks the timestamp-sharing pattern of each group. */
  key: number;
  /** Per-series id salt, a multiple of 16 below ID_PER_MS - 16. */
  salt: bigint;
  make(j: number, time: number, id: bigint): T;
}

/**
 * A chunk whose record j sits at a time derived from j: groups of four records spread evenly
 * over [start, end], each group at least 4 ms apart so ids never collide.
 *
 * @example
 * const c = lazyChunk({ count: 100, start: 0, end: 86_400_000, key: 7, salt: 0n, make: (j, t, id) => ({ j, t, id }) });
 */
export function lazyChunk<T>(spec: LazyChunkSpec<T>): Chunk<T> {
  const groups = Math.ceil(spec.count / 4);
  const span = Math.max(0, spec.end - 3 - spec.start);
  const step = groups > 1 ? span / (groups - 1) : 0;
  if (groups > 1 && step < 4) {
    throw new RangeError(`too many records (${spec.count}) for a ${spec.end - spec.start} ms span: at most one per ms`);
  }
  const timeAt = (j: number): number => {
    const g = Math.floor(j / 4);
    const pattern = groupPatterns[mix2(spec.key, g) & 3] ?? groupPatterns[0]!;
    // A lone group sits at the end: the newest moment of the chunk, where open records live.
    const groupTime = groups > 1 ? spec.start + Math.floor(g * step) : spec.start + span;
    return groupTime + (pattern[j & 3] ?? 0);
  };
  const idAt = (j: number): bigint => BigInt(timeAt(j)) * ID_PER_MS + spec.salt + BigInt(j & 3);
  return {
    count: spec.count,
    timeAt,
    idAt,
    recordAt: (j) => {
      const t = timeAt(j);
      return spec.make(j, t, BigInt(t) * ID_PER_MS + spec.salt + BigInt(j & 3));
    },
  };
}

/** A growable chunk of explicit records (writes), in id order. */
export class ListChunk<T> implements Chunk<T> {
  private readonly records: T[] = [];
  private readonly times: number[] = [];
  private readonly ids: bigint[] = [];

  get count(): number {
    return this.records.length;
  }
  timeAt(j: number): number {
    return this.times[j] ?? Number.NaN;
  }
  idAt(j: number): bigint {
    return this.ids[j] ?? -1n;
  }
  recordAt(j: number): T {
    return this.records[j] as T;
  }
  push(record: T, time: number, id: bigint): void {
    this.records.push(record);
    this.times.push(time);
    this.ids.push(id);
  }
}
