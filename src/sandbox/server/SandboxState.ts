import type { FaultInjector } from './FaultInjector.js';

/**
 * The server's runtime settings. Tests change some of them over HTTP (/_sandbox/faults,
 * /_sandbox/clock), so they live in one mutable object owned by the server.
 */
export interface SandboxState {
  seed: number;
  /** Per-UID limits and the overall per-IP limit, both on or both off. */
  rateLimit: boolean;
  /** The overall limit per IP address (api-notes.md: 6000 requests/minute); see IpLimiter. */
  ipRatePerMinute: number;
  /** How long an address that tripped it is refused (api-notes.md: "about 5 minutes"). */
  ipLockoutMs: number;
  /** Span of E5 and the tax endpoints in days. */
  taxSpanDays: number;
  /** Added to the world clock to make the server clock (tests of clock handling). */
  skewMs: number;
  faults: FaultInjector;
  logRequests: boolean;
  /**
   * The rate limiter's clock (ms) for one request; performance.now() at arrival unless a test
   * gives one: a clock it moves by hand, or the request's signing time (`signedAtMs`, its
   * ACCESS-TIMESTAMP), which counts a request when the client sent it however late it is served.
   */
  rateClock?: (request: { signedAtMs: number | undefined }) => number;
  /**
   * Seconds sent as `Retry-After` with every 429; null (the default) sends none. api-notes.md
   * documents the exchange's 429 as the envelope alone (`{"code":"429","msg":"Too Many
   * Requests","data":null}`, "retry after a pause") and names no header, so the twin sends none
   * unless a test asks (POST /_sandbox/retry-after), to prove the client honours one if a real
   * front end adds it.
   */
  retryAfterSeconds: number | null;
}
