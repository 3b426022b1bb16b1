/** One account's rows of one table, newly stored by a finished history job. */
export interface Arrival {
  readonly uid: string;
  readonly table: string;
}

/**
 * The tables (with their accounts) whose history jobs have finished during a run, handed from
 * the history jobs to the prices stream so it can read the candles their rows need while the
 * slower jobs still walk (issue 24 item 1). Pairs added while the reader is busy are taken
 * together by its next `take`.
 *
 * @example
 * const arrivals = new LedgerArrivals();
 * arrivals.add('1001', 'spot_fills');
 * await arrivals.take(); // [{ uid: '1001', table: 'spot_fills' }]
 * arrivals.close();
 * await arrivals.take(); // undefined (closed)
 */
export class LedgerArrivals {
  #pending = new Map<string, Arrival>();
  #closed = false;
  #wake: (() => void) | undefined;

  add(uid: string, table: string): void {
    if (this.#closed) return;
    this.#pending.set(`${uid}\u0000${table}`, { uid, table });
    this.#wake?.();
  }

  /** No more pairs come, and those pending are dropped (a full pass follows): `take` gives undefined. */
  close(): void {
    this.#closed = true;
    this.#pending.clear();
    this.#wake?.();
  }

  /** Every pair added since the last take, waiting for one if none is; undefined once closed and drained. */
  async take(): Promise<Arrival[] | undefined> {
    while (this.#pending.size === 0 && !this.#closed) await new Promise<void>((resolve) => { this.#wake = resolve; });
    this.#wake = undefined;
    if (this.#pending.size === 0) return undefined;
    const out = [...this.#pending.values()];
    this.#pending.clear();
    return out;
  }
}
