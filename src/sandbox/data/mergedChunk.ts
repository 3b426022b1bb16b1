import { ID_PER_MS, type Chunk } from './chunk.js';

/**
 * Records placed into a series at times another series chose (counter legs), sorted by time.
 * Record b is built only when read.
 */
export interface PlacedRecords<T> {
  readonly count: number;
  timeAt(b: number): number;
  build(b: number, id: bigint, time: number): T;
}

/**
 * Lazy chunks use id offsets 0-3 within a ms; placed records take 4-255, after them (a main
 * account with 20 sub-accounts can receive dozens of legs at one ms of a sparse history). Salts
 * stay below ID_PER_MS - 256, so ids stay below the next ms.
 */
const FIRST_PLACED_OFFSET = 4;
const OFFSETS_PER_MS = 256;

/**
 * A lazy chunk's own records and records placed at given times, in one id (and time) order.
 * Record i is found by a binary search over how many own records precede it, so nothing is
 * built before it is asked for. `placed` must be sorted by time; `salt` is the series' id salt.
 * At one ms the own records come first, then the placed ones (at most 252 per ms).
 *
 * @example
 * const c = mergedChunk(lazyChunk(spec), { count: 1, timeAt: () => t, build: (b, id, time) => bill(id, time) }, spec.salt);
 * c.recordAt(0);
 */
export function mergedChunk<T>(own: Chunk<T> | undefined, placed: PlacedRecords<T>, salt: bigint): Chunk<T> {
  const nOwn = own?.count ?? 0;
  const nPlaced = placed.count;
  const offsets = new Uint8Array(nPlaced);
  for (let b = 0; b < nPlaced; b++) {
    const same = b > 0 && placed.timeAt(b - 1) === placed.timeAt(b);
    if (b > 0 && placed.timeAt(b - 1) > placed.timeAt(b)) throw new RangeError('placed records must be sorted by time');
    offsets[b] = same ? offsets[b - 1]! + 1 : FIRST_PLACED_OFFSET;
    if (offsets[b]! >= OFFSETS_PER_MS) throw new RangeError(`more than ${OFFSETS_PER_MS - FIRST_PLACED_OFFSET} placed records at ${placed.timeAt(b)} ms`);
  }
  // Order keys as plain numbers: time * 256 + offset stays below 2^53 until the year 2527.
  const ownKey = (a: number): number => own!.timeAt(a) * OFFSETS_PER_MS + (a & 3);
  const placedKey = (b: number): number => placed.timeAt(b) * OFFSETS_PER_MS + offsets[b]!;
  /** How many own records come before position i. */
  const ownBefore = (i: number): number => {
    let lo = Math.max(0, i - nPlaced);
    let hi = Math.min(i, nOwn);
    while (lo < hi) {
      const a = (lo + hi) >>> 1;
      // Too few own records before i when own record a still precedes the placed record i - a - 1.
      if (ownKey(a) < placedKey(i - a - 1)) lo = a + 1;
      else hi = a;
    }
    return lo;
  };
  const locate = (i: number): { own: boolean; k: number } => {
    const a = ownBefore(i);
    const b = i - a;
    const isOwn = a < nOwn && (b >= nPlaced || ownKey(a) < placedKey(b));
    return isOwn ? { own: true, k: a } : { own: false, k: b };
  };
  const placedId = (b: number): bigint => BigInt(placed.timeAt(b)) * ID_PER_MS + salt + BigInt(offsets[b]!);
  return {
    count: nOwn + nPlaced,
    timeAt(i) {
      const at = locate(i);
      return at.own ? own!.timeAt(at.k) : placed.timeAt(at.k);
    },
    idAt(i) {
      const at = locate(i);
      return at.own ? own!.idAt(at.k) : placedId(at.k);
    },
    isPlaced(i) {
      return !locate(i).own;
    },
    recordAt(i) {
      const at = locate(i);
      if (at.own) return own!.recordAt(at.k);
      return placed.build(at.k, placedId(at.k), placed.timeAt(at.k));
    },
  };
}
