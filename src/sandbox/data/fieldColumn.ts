/**
 * What a series has learnt about one string field of its records (say `symbol`), one byte per
 * record: 0 for "not seen yet", else the code of the value seen. A filtered page (E13 per
 * symbol, E11 per plan type) then skips records it already knows fail, instead of building every
 * record again for every filter value. Fields with more than 255 distinct values give up (the
 * column says nothing and costs nothing more).
 *
 * @example
 * const c = new FieldColumn();
 * c.remember(7, 'BTCUSDT', 100);
 * c.knownOther(7, 'ETHUSDT'); // true: record 7 is BTCUSDT
 */
export class FieldColumn {
  private codes = new Uint8Array(0);
  private readonly values: string[] = [];
  private readonly codeOf = new Map<string, number>();
  private gaveUp = false;

  /** True when record i is known to hold a value other than `value`. */
  knownOther(i: number, value: string): boolean {
    const code = i < this.codes.length ? this.codes[i]! : 0;
    return code !== 0 && this.values[code - 1] !== value;
  }

  /** Notes record i's value; `size` is the series' current record count. */
  remember(i: number, value: unknown, size: number): void {
    if (this.gaveUp || typeof value !== 'string') return;
    let code = this.codeOf.get(value);
    if (code === undefined) {
      if (this.values.length === 255) {
        this.gaveUp = true;
        this.codes = new Uint8Array(0);
        return;
      }
      this.values.push(value);
      code = this.values.length;
      this.codeOf.set(value, code);
    }
    if (i >= this.codes.length) {
      const grown = new Uint8Array(Math.max(size, i + 1));
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[i] = code;
  }

  /** Record i changed (a settled order): forget what it held. */
  forget(i: number): void {
    if (i < this.codes.length) this.codes[i] = 0;
  }
}
