import { backoffMs } from './backoff.js';

/**
 * The time source of a rate budget: wall-clock ms and timers. Production uses `systemClock`;
 * tests pass a manual clock (test/support/manualClock.ts) so that they count grants per
 * simulated second instead of measuring elapsed time.
 */
export interface RateClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: Date.now() and Node's timers. */
export const systemClock: RateClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A causal window: at most `count` requests of this budget are "recent" at once, where a request
 * is recent from its grant until `windowMs` (+ a margin) after its answer came back. The server
 * counted a request somewhere between our send and our receipt of its answer, so a request sent
 * `windowMs` after that receipt reaches it at least `windowMs` later, however late either side's
 * event loop ran. No timer jitter or load can then put more than `count` requests into one window
 * of the server's, which is what a limit with no burst room (1 request/s) needs.
 */
export interface CausalWindow {
  readonly count: number;
  readonly windowMs: number;
}

/**
 * Added to a causal window for clock granularity: Date.now() counts whole ms on our side and the
 * server's, so an answer stamped at ms t may have come back at t + 0.99, and a timer that fires a
 * little early is re-armed by the pump (it compares against Date.now()). 5 ms covers both ends;
 * it was 20, which cost 15 ms on each of the 50 E5 requests that set a first sync's length.
 */
export const causalMarginMs = 5;

interface Waiter {
  enqueuedAt: number;
  resolve: (waitedMs: number) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** Work the grant waits for, started once this waiter is next and its grant time is known. */
  prepare: (() => Promise<unknown>) | undefined;
  /** 'started' while `prepare` runs; 'done' after it (or when there is none). */
  prepared: 'no' | 'started' | 'done';
}

/**
 * The request budget of one endpoint for one UID: a token bucket (kept as a GCRA schedule) at
 * `ratePerSecond`, whose callers wait in FIFO order. `burst` (capped at one second's worth) is how
 * many may go at once after idling; 1 spaces requests evenly, which keeps every one-second window
 * under the limit even when the server counts in sliding windows. A 429 pauses the whole budget
 * with jittered exponential back-off (or the server's Retry-After), so every caller of that
 * endpoint backs off together. With a `CausalWindow` (the 1 request/s endpoints) a grant also
 * waits until the previous answers are a full window old: callers then report `settled()`.
 *
 * @example
 * const budget = new RateBudget(0.9); // E5 at 90% of 1/s
 * const waitedMs = await budget.acquire(signal);
 * // ... send the request; on a 429: budget.pause(retryAfter); on success: budget.succeeded();
 */
export class RateBudget {
  readonly ratePerSecond: number;
  readonly intervalMs: number;
  readonly burst: number;
  /** Lag of a timer that still counts as "on schedule", so timer lag does not lower the rate. */
  readonly #toleranceMs: number;
  #tat = 0;
  #pausedUntil = 0;
  #pausedAt = 0;
  #strikes = 0;
  #queue: Waiter[] = [];
  #timer: unknown;
  readonly #clock: RateClock;
  readonly #window: CausalWindow | undefined;
  /** Granted and not yet `settled`, in causal-window budgets. */
  #inFlight = 0;
  /** When each settled request stops being recent, in causal-window budgets. */
  #recentUntil: number[] = [];

  constructor(ratePerSecond: number, burst = 1, clock: RateClock = systemClock, window?: CausalWindow) {
    if (!(ratePerSecond > 0)) throw new RangeError(`ratePerSecond must be positive, got ${ratePerSecond}`);
    this.ratePerSecond = ratePerSecond;
    this.intervalMs = 1000 / ratePerSecond;
    // Never more than one second's worth at once.
    this.burst = Math.max(1, Math.min(Math.floor(burst), Math.floor(ratePerSecond)));
    this.#toleranceMs = Math.min(this.intervalMs / 4, 25);
    this.#clock = clock;
    if (window !== undefined && !(window.count >= 1 && window.windowMs > 0)) throw new RangeError(`a causal window needs count >= 1 and windowMs > 0, got ${JSON.stringify(window)}`);
    this.#window = window;
  }

  /** Requests granted whose answer has not come back yet (causal-window budgets only; else 0). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The budget's clock reading (ms): what `sent` and `pause` expect as their times. */
  now(): number {
    return this.#clock.now();
  }

  /** Callers waiting right now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Waits for a slot (FIFO); resolves with the milliseconds waited. `prepare`, in a causal-window
   * budget, runs while this caller waits for its window: once it is next in line and the request
   * before it has been answered (its grant is then at most a window away), so the work it does
   * (the per-address reservation, ExchangeClient) is off the request's path and at most about one
   * window ahead of it. The grant waits for `prepare` to settle, whatever its outcome.
   */
  acquire(signal?: AbortSignal, prepare?: () => Promise<unknown>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        enqueuedAt: this.#clock.now(), resolve, reject, signal,
        prepare: this.#window === undefined ? undefined : prepare, prepared: this.#window !== undefined && prepare !== undefined ? 'no' : 'done',
        onAbort: () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(signal?.reason);
          this.#pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /**
   * Pauses the budget after a 429: `retryAfterMs` when the server gave one, otherwise jittered
   * exponential back-off over consecutive 429s. A 429 for a request sent before the current
   * pause began does not escalate it: several requests in flight often fail together.
   * Returns the remaining pause in ms.
   */
  pause(retryAfterMs?: number, sentAt = this.#clock.now()): number {
    const now = this.#clock.now();
    if (sentAt >= this.#pausedAt) {
      this.#strikes += 1;
      this.#pausedAt = now;
    }
    // The first step lets the server's bucket refill a couple of tokens; then it doubles.
    const delay = retryAfterMs ?? backoffMs(this.#strikes, Math.max(250, 2 * this.intervalMs), 30_000);
    this.#pausedUntil = Math.max(this.#pausedUntil, now + delay);
    // Restart paced, one request at a time, rather than releasing a burst when the pause ends.
    this.#tat = Math.max(this.#tat, this.#pausedUntil + (this.burst - 1) * this.intervalMs);
    this.#pump();
    return Math.max(0, this.#pausedUntil - now);
  }

  /**
   * The request granted last left for the wire at `at`. Later grants keep a full interval from
   * that moment: a grant that went out late (queued behind the per-IP budget, or on a busy event
   * loop while hundreds of partitions start at once) must not let the next request arrive at the
   * server closer than its limit allows, which is what produced the first-seconds 429s.
   * Returns `at`, the time to give `pause` should this request meet a 429.
   */
  sent(at = this.#clock.now()): number {
    this.#tat = Math.max(this.#tat, at + this.intervalMs);
    return at;
  }

  /**
   * The request granted last got its answer (or failed, or was never sent) at `at`. Every grant
   * must be settled once; a causal-window budget counts the request as recent until `windowMs`
   * after `at` and grants nothing that would make more than `count` recent. Other budgets ignore it.
   */
  settled(at = this.#clock.now()): void {
    if (this.#window === undefined) return;
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#recentUntil.push(at + this.#window.windowMs + causalMarginMs);
    this.#pump();
  }

  /** A request went through: the next 429 starts the back-off from its first step again. */
  succeeded(): void {
    this.#strikes = 0;
  }

  #pump(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const now = this.#clock.now();
    if (this.#window !== undefined) this.#recentUntil = this.#recentUntil.filter((until) => until > now);
    while (this.#queue.length > 0) {
      let earliest = Math.max(this.#tat - (this.burst - 1) * this.intervalMs, this.#pausedUntil);
      if (this.#window !== undefined && this.#inFlight + this.#recentUntil.length >= this.#window.count) {
        // Full: the next grant waits for a recent request to age out, or (all in flight) for `settled`.
        if (this.#recentUntil.length === 0) return;
        earliest = Math.max(earliest, Math.min(...this.#recentUntil));
      }
      const head = this.#queue[0] as Waiter;
      if (head.prepared !== 'done') {
        if (head.prepared === 'no') {
          head.prepared = 'started';
          const settle = () => {
            head.prepared = 'done';
            if (this.#queue[0] === head) this.#pump();
          };
          (head.prepare as () => Promise<unknown>)().then(settle, settle);
        }
        // Its settling pumps again; a timer meanwhile would only find it unsettled.
        return;
      }
      if (now < earliest) {
        this.#timer = this.#clock.setTimeout(() => this.#pump(), Math.ceil(earliest - now));
        return;
      }
      const waiter = this.#queue.shift() as Waiter;
      if (this.#window !== undefined) this.#inFlight += 1;
      this.#tat = Math.max(this.#tat, now - this.#toleranceMs) + this.intervalMs;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(now - waiter.enqueuedAt);
    }
  }
}
