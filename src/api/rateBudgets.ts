import { RateBudget, systemClock, type CausalWindow, type RateClock } from './rateBudget.js';
import type { SharedRateStore } from './sharedRateStore.js';

/**
 * The registry of rate budgets, one per (budget key, scope). The budget key is the account's
 * UID, because the exchange counts limits per UID, and the scope an endpoint name: every client,
 * stream and partition of one account that calls one endpoint draws on the same budget. The
 * client also keeps one per-IP budget here (key `ip@<origin>`).
 *
 * With a `shared` store, the budgets the exchange counts per IP (the public endpoints and the
 * overall per-IP limit) are also spent in that store, which every process on the same address
 * shares; the in-process budgets then still pace this process and carry its 429 back-off.
 *
 * @example
 * const budgets = new RateBudgets();
 * const a = new ExchangeClient({ baseUrl, budgetKey: uid, budgets, credentials });
 * const b = new ExchangeClient({ baseUrl, budgetKey: uid, budgets, credentials }); // shares a's budgets
 */
export class RateBudgets {
  readonly #budgets = new Map<string, RateBudget>();

  /**
   * `clock` is the real one except in tests that count grants per simulated second; `shared` holds
   * the per-address budgets that other processes spend too (none: this process alone).
   */
  constructor(readonly clock: RateClock = systemClock, readonly shared?: SharedRateStore) {}

  /** Callers waiting right now, over every budget. */
  get waiting(): number {
    let n = 0;
    for (const budget of this.#budgets.values()) n += budget.waiting;
    return n;
  }

  /** The budget for this key and scope, created at `ratePerSecond` (and causal `window`) on first use. */
  get(budgetKey: string, scope: string, ratePerSecond: number, burst = 1, window?: CausalWindow): RateBudget {
    const key = `${budgetKey}\u0000${scope}`;
    let budget = this.#budgets.get(key);
    if (budget === undefined) {
      budget = new RateBudget(ratePerSecond, burst, this.clock, window);
      this.#budgets.set(key, budget);
    }
    return budget;
  }
}

/** Used by clients that are given no registry, so same-UID clients share budgets by default. */
export const defaultRateBudgets = new RateBudgets();
