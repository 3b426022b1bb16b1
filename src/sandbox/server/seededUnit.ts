/**
 * A deterministic number in [0, 1) from a seed, a text and a counter: FNV-1a over the text, then
 * a murmur3 finaliser mixing in the seed and counter. Fault decisions use it so the same request
 * sent the same number of times meets the same faults, whatever the concurrency.
 *
 * @example
 * seededUnit(1, 'GET /api/v2/tax/margin-record?...', 0) // 0.7316...
 */
export function seededUnit(seed: number, text: string, counter: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= Math.imul(counter + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
