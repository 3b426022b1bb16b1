import { measureClockOffset } from '../extract/measureClockOffset.js';
import type { SyncOptions } from '../extract/syncOptions.js';

/** How long a worker trusts one clock measurement; clocks under NTP drift milliseconds a day. */
const clockTtlMs = 10 * 60_000;

/**
 * One exchange clock measurement per worker process, refreshed every ten minutes and shared by
 * its jobs. Measured per job, eight job slots finishing short nightly jobs started dozens of
 * clock reads a second from one IP, and the exchange's per-IP limit on that public endpoint
 * answered 429 (399 of them for 200 accounts in the workers benchmark).
 *
 * @example
 * const clock = sharedClockOffset(); const offset = await clock(options);
 */
export function sharedClockOffset(measure: (o: Pick<SyncOptions, 'baseUrl' | 'client'>) => Promise<number> = measureClockOffset): (o: Pick<SyncOptions, 'baseUrl' | 'client'>) => Promise<number> {
  let cached: { at: number; offset: Promise<number> } | undefined;
  return (o) => {
    if (cached === undefined || Date.now() - cached.at > clockTtlMs) {
      const offset = measure(o);
      cached = { at: Date.now(), offset };
      // A failed measurement is not kept: the next job measures again.
      offset.catch(() => { if (cached?.offset === offset) cached = undefined; });
    }
    return cached.offset;
  };
}
