import type { RateClock } from '../../src/api/rateBudget.js';

/**
 * A clock that moves only when the test says so, for rate budgets (RateBudget, RateBudgets):
 * timers fire in due order as `advance` passes them, each seeing `now()` at its due time. Tests
 * then count what a budget granted per simulated second, which a busy machine cannot change.
 *
 * @example
 * const clock = new ManualClock();
 * const budget = new RateBudget(10, 1, clock);
 * void budget.acquire(); void budget.acquire();
 * await clock.advance(100); // the second grant is due at 100 ms
 */
export class ManualClock implements RateClock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.#timers.size;
  }

  /**
   * Moves time forward by `ms`, firing every timer due on the way (in due order, at its due time)
   * and letting promise callbacks run after each, so that what a grant sets off happens at its time.
   */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= until && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].fn();
    }
    this.#now = until;
    await settle();
  }
}

/** Lets queued promise callbacks run (several rounds: grants chain through a few awaits). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
