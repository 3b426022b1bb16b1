/**
 * The exchange's overall limit per IP address (api-notes.md, "Envelope and errors": "There is
 * also an overall limit per IP of 6000 requests/minute; after it trips, recovery takes about 5
 * minutes"). Counted as the strictest reading of "per minute": no more than `perMinute` requests
 * from one address in any 60 seconds (a sliding window of arrival times). The request that would
 * exceed it trips the limit, and every request from that address is refused until `lockoutMs`
 * after it. Per-UID limits are a separate check (RateLimiter); a request counts here whether or
 * not its UID's budget then refuses it, since the exchange saw it.
 *
 * @example
 * const ip = new IpLimiter(6000, 300_000);
 * if (!ip.take('127.0.0.1', performance.now())) answer429();
 */
export class IpLimiter {
  readonly #perMinute: number;
  readonly #lockoutMs: number;
  readonly #addresses = new Map<string, { arrivals: number[]; head: number; lockedUntil: number }>();

  constructor(perMinute: number, lockoutMs: number) {
    if (!(Number.isInteger(perMinute) && perMinute >= 1)) throw new RangeError(`perMinute must be a positive whole number, got ${perMinute}`);
    this.#perMinute = perMinute;
    this.#lockoutMs = lockoutMs;
  }

  /** Counts one request from `ip` arriving at `nowMs` (a monotonic ms clock); false: refuse it. */
  take(ip: string, nowMs: number): boolean {
    let a = this.#addresses.get(ip);
    if (a === undefined) {
      a = { arrivals: [], head: 0, lockedUntil: -Infinity };
      this.#addresses.set(ip, a);
    }
    if (nowMs < a.lockedUntil) return false;
    while (a.head < a.arrivals.length && a.arrivals[a.head]! <= nowMs - 60_000) a.head++;
    if (a.head > 4096) {
      a.arrivals = a.arrivals.slice(a.head);
      a.head = 0;
    }
    if (a.arrivals.length - a.head >= this.#perMinute) {
      a.lockedUntil = nowMs + this.#lockoutMs;
      return false;
    }
    a.arrivals.push(nowMs);
    return true;
  }
}
