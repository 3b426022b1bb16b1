import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { RateClock } from '../api/rateBudget.js';
import type { SharedRateSlot, SharedRateStore } from '../api/sharedRateStore.js';

/**
 * The per-address rate budgets in PostgreSQL (table `rate_budgets`, migration 0069): every
 * process that gives the same `address` (by default this host's name) spends one budget per
 * public endpoint and one for the exchange's overall per-IP limit. One reservation is one
 * statement (`rate_budget_reserve`), atomic across processes and machines, holding no lock
 * between statements, so a process killed at any moment leaves nothing to clean up.
 *
 * Why PostgreSQL rather than a file lock on the host: every process that syncs already holds a
 * connection to it; a row update is atomic without any lock file that a kill -9 could leave
 * behind; and it works the same for containers on one host (which share an address but not a
 * file system) and for hosts behind one NAT address: give them one `client.budgetAddress`.
 *
 * @example
 * const budgets = new RateBudgets(systemClock, new PgRateStore(db));
 */
export class PgRateStore implements SharedRateStore {
  readonly #db: Kysely<any>;
  readonly #address: string;
  readonly #clock: RateClock | undefined;

  /** `clock` only in tests that move time by hand (the database's clock otherwise). */
  constructor(db: Kysely<any>, address: string = hostname(), clock?: RateClock) {
    this.#db = db;
    this.#address = address;
    this.#clock = clock;
  }

  async reserve(slots: readonly SharedRateSlot[], signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) throw signal.reason;
    const keys = slots.map((s) => this.#key(s.key));
    const now = this.#clock?.now() ?? null;
    const { rows } = await sql<{ wait_ms: number }>`
      SELECT rate_budget_reserve(${keys}::text[], ${slots.map((s) => s.intervalMs)}::double precision[],
                                 ${slots.map((s) => s.burst)}::integer[], ${now}::double precision) AS wait_ms`.execute(this.#db);
    return Math.max(0, Number(rows[0]?.wait_ms ?? 0));
  }

  async pause(key: string, ms: number): Promise<void> {
    const now = this.#clock?.now() ?? null;
    await sql`SELECT rate_budget_pause(${this.#key(key)}, ${ms}::double precision, ${now}::double precision)`.execute(this.#db);
  }

  #key(key: string): string {
    return `${this.#address}|${key}`;
  }
}
