/** One budget a shared reservation spends: its key (origin and scope), its spacing and its burst. */
export interface SharedRateSlot {
  readonly key: string;
  readonly intervalMs: number;
  readonly burst: number;
}

/**
 * Rate budgets kept outside this process, so that every process that reaches the exchange from
 * one address spends one budget: the public endpoints (limited per IP) and the per-IP overall
 * limit. The implementation holds one token-bucket row per budget in PostgreSQL
 * (src/extract/pgRateStore.ts); each reservation is one atomic statement, so processes never
 * need to know about each other, and one that dies leaves nothing locked.
 *
 * @example
 * const waitMs = await store.reserve([{ key: 'public@https://api.x.com|marketCandles', intervalMs: 52.6, burst: 1 }]);
 * await sleep(waitMs); // then send
 * // on a 429: await store.pause('public@https://api.x.com|marketCandles', retryAfterMs);
 */
export interface SharedRateStore {
  /**
   * Reserves the next slot that every named budget allows, in one step for all of them, and
   * resolves with the milliseconds to wait until it (0 = now).
   */
  reserve(slots: readonly SharedRateSlot[], signal?: AbortSignal): Promise<number>;
  /** No process sends on this budget for `ms` from now (the exchange answered 429). */
  pause(key: string, ms: number): Promise<void>;
}
