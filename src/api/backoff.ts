/**
 * Jittered exponential back-off ("equal jitter"): half the exponential delay is fixed, half is
 * random, so many callers that failed together do not retry together.
 *
 * @example
 * await sleep(backoffMs(attempt, 250, 10_000));
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return exp / 2 + Math.random() * (exp / 2);
}

/**
 * Reads a `Retry-After` header (delta seconds or an HTTP date) as milliseconds from now;
 * undefined when absent or unreadable.
 *
 * @example
 * retryAfterMs('2') // 2000
 */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
