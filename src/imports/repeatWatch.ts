/**
 * Whether any of a stream of values may have come before, in a few bytes a value: the
 * importer's way to know, as it reads, that a file repeats no line content and no TxHash, so
 * that the check of the whole file in PostgreSQL (importTransactions.ts, fileChecksSql) can be
 * left out when it could only say "none" (issue 24: that statement was 0.3-0.4 s, run after the
 * last line, of a 200,000-line import).
 *
 * It keeps a 64-bit fingerprint of each value in an open-addressed table. Equal values have
 * equal fingerprints, so a value seen before is always caught: `repeated` is never false when a
 * value came twice. Two different values may share a fingerprint (about one pair in 10^7 at a
 * million values); that only sends the import to the exact check, which then finds nothing.
 * Past `limit` values it stops keeping them and answers "maybe" from then on, so memory stays
 * bounded whatever the file's size (8 bytes a slot: 16 MB at most at the default limit).
 *
 * @example
 * const keys = new RepeatWatch(); keys.addHex(lineKey(t)); ... if (!keys.repeated) skipTheCheck();
 */
export class RepeatWatch {
  /** Slot i holds the fingerprint's two halves at 2i and 2i + 1; (0, 0) is an empty slot. */
  private slots = new Int32Array(2 * 1024);
  private used = 0;
  private full = false;
  private sawZero = false;
  /** True once some value may have come before (or once too many values were kept to say). */
  repeated = false;

  constructor(private readonly limit = 1_500_000) {}

  /** Adds a value given as at least 16 hex digits (a SHA-256 in hex): its first 64 bits are its fingerprint. */
  addHex(hex: string): void {
    if (this.repeated) return;
    this.add(parseInt(hex.slice(0, 8), 16) | 0, parseInt(hex.slice(8, 16), 16) | 0);
  }

  /** Adds a string (a TxHash): its fingerprint is two 32-bit FNV-1a hashes of its UTF-16 code units, with two offsets. */
  addText(text: string): void {
    if (this.repeated) return;
    let a = 0x811c9dc5 | 0;
    let b = 0x01000193 ^ text.length;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      a = Math.imul(a ^ ch, 0x01000193);
      b = Math.imul(b ^ ch, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.add(a, b);
  }

  private add(hi: number, lo: number): void {
    if (hi === 0 && lo === 0) {
      // The one fingerprint an empty slot also has: kept aside.
      if (this.sawZero) this.repeated = true;
      this.sawZero = true;
      return;
    }
    if (this.full) {
      this.repeated = true;
      return;
    }
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    // lo mixed down to a slot: a TxHash's two halves are both hashes, a key's are both random.
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    for (;;) {
      const h = slots[2 * i]!;
      const l = slots[2 * i + 1]!;
      if (h === 0 && l === 0) break;
      if (h === hi && l === lo) {
        this.repeated = true;
        return;
      }
      i = (i + 1) & mask;
    }
    slots[2 * i] = hi;
    slots[2 * i + 1] = lo;
    this.used++;
    if (this.used >= this.limit) {
      this.full = true;
      this.slots = new Int32Array(0);
    } else if (this.used * 4 >= (slots.length >> 1) * 3) {
      this.grow();
    }
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let j = 0; j < old.length; j += 2) {
      const hi = old[j]!;
      const lo = old[j + 1]!;
      if (hi === 0 && lo === 0) continue;
      let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
      while (slots[2 * i] !== 0 || slots[2 * i + 1] !== 0) i = (i + 1) & mask;
      slots[2 * i] = hi;
      slots[2 * i + 1] = lo;
    }
    this.slots = slots;
  }
}
