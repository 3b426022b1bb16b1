/**
 * Deterministic pseudo-randomness keyed by position, so any record of any series can be rebuilt
 * on its own from (seed, series, index) without generating the records before it.
 *
 * @example
 * const r = recordRng(hashKey(1, 'spotOrders', '1000001'), 42);
 * r.pick(['buy', 'sell']); r.int(100);
 */
export interface Rng {
  /** A uint32. */
  u32(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/**
 * Mixes 32-bit words into one well-spread uint32 (murmur3 finalizer over a running hash).
 *
 * @example
 * mix(1, 2, 3); // a uint32
 */
export function mix(...words: number[]): number {
  let h = 0x9e3779b9;
  for (const w of words) h = mixStep(h, w);
  return mixFinish(h);
}

/**
 * mix(a, b) without the rest-parameter array: it runs for every record (its rng and its time).
 *
 * @example
 * mix2(1, 2) === mix(1, 2); // true
 */
export function mix2(a: number, b: number): number {
  return mixFinish(mixStep(mixStep(0x9e3779b9, a), b));
}

function mixStep(h: number, w: number): number {
  h ^= Math.imul((w | 0) ^ ((w / 0x1_0000_0000) | 0), 0xcc9e2d51);
  return Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
}

function mixFinish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hashes a seed and any strings into one uint32 key.
 *
 * @example
 * hashKey(1, 'spotOrders', 'all'); // a uint32
 */
export function hashKey(seed: number, ...parts: string[]): number {
  const words: number[] = [seed];
  for (const p of parts) {
    let h = 0x811c9dc5;
    for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193);
    words.push(h >>> 0);
  }
  return mix(...words);
}

/** A small splitmix32 stream; a class so that making one per record allocates no closures. */
class SplitMix implements Rng {
  constructor(private state: number) {}

  u32(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  int(n: number): number {
    return n <= 1 ? 0 : this.u32() % n;
  }

  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.u32() / 0x1_0000_0000 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

/**
 * A stream seeded by (key, index).
 *
 * @example
 * recordRng(hashKey(1, 'x'), 42).int(10);
 */
export function recordRng(key: number, index: number): Rng {
  return new SplitMix(mix2(key, index));
}
