/**
 * Per (UID, endpoint) rate limits as a token bucket whose capacity equals the per-second rate:
 * it refills continuously at `rate` tokens/s and never holds more than one second's worth, so no
 * burst above the per-second rate is ever allowed. A client running its own bucket at the same
 * rate therefore never sees a 429, and one that sends faster always does.
 *
 * @example
 * const limiter = new RateLimiter();
 * if (!limiter.take('1001|E5', 1)) answer429();
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** Takes one token if there is one. `nowMs` is a monotonic clock (performance.now()). */
  take(key: string, ratePerSecond: number, nowMs = performance.now()): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: ratePerSecond, at: nowMs };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(ratePerSecond, bucket.tokens + ((nowMs - bucket.at) / 1000) * ratePerSecond);
    bucket.at = nowMs;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
