/** How many downloads run at once and how many may wait; defaults in {@link downloadSlots}. */
export interface DownloadSlotLimits {
  /** Downloads running at once (each holds one or two database connections); default 4. */
  running: number;
  /** Downloads waiting for a slot; one more is answered 503 with Retry-After; default 16. */
  waiting: number;
}

/** The shared pool of download slots of one portal. */
export interface DownloadSlots {
  /**
   * A slot, once one is free (resolves to its release function), or 'full' when `waiting`
   * requests already wait. An abort while waiting leaves the queue and rejects with the reason.
   */
  acquire(signal: AbortSignal): Promise<(() => void) | 'full'>;
  /** Slots in use and requests waiting, now. */
  counts(): { running: number; waiting: number };
}

export const defaultDownloadSlots: DownloadSlotLimits = { running: 4, waiting: 16 };

/**
 * Bounds the portal's downloads: each report or gains download runs its queries on connections
 * of its own (outside the page pool), so 105 aborted downloads once held 66 connections at once.
 * At most `running` run; up to `waiting` more wait in arrival order; the rest are refused.
 *
 * @example
 * const slots = downloadSlots({ running: 4, waiting: 16 });
 * const release = await slots.acquire(signal); if (release === 'full') return c.text('busy', 503); try { ... } finally { release(); }
 */
export function downloadSlots(limits: DownloadSlotLimits = defaultDownloadSlots): DownloadSlots {
  let running = 0;
  const queue: { grant(): void }[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next.grant();
    else running -= 1;
  };
  const once = () => {
    let done = false;
    return () => { if (!done) { done = true; release(); } };
  };
  return {
    acquire(signal) {
      signal.throwIfAborted();
      if (running < limits.running) {
        running += 1;
        return Promise.resolve(once());
      }
      if (queue.length >= limits.waiting) return Promise.resolve('full');
      return new Promise((resolve, reject) => {
        const entry = {
          // The slot passes straight from the one who released it: `running` is unchanged.
          grant: () => { signal.removeEventListener('abort', onAbort); resolve(once()); },
        };
        const onAbort = () => {
          const at = queue.indexOf(entry);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(entry);
      });
    },
    counts: () => ({ running, waiting: queue.length }),
  };
}
