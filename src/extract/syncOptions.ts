import type { Kysely } from 'kysely';
import type { SyncEventSink } from './syncEvent.js';

/** One account to sync, with its secrets held in memory only. */
export interface SyncAccount {
  /** Configured UID; discovered at preflight when absent. */
  readonly uid: string | undefined;
  readonly name: string;
  readonly kind: 'main' | 'sub' | 'demo';
  readonly parentName: string | undefined;
  readonly credentials: { readonly apiKey: string; readonly secretKey: string; readonly passphrase: string };
}

/**
 * The config's `sync` section, exactly as the engine reads it: the CLI's frozen config holds this
 * object and hands it over unchanged, and the window planner reads it as it is (one set of names
 * from the config file to planWindows).
 */
export interface SyncSettings {
  /** --since, when given (Unix ms): where a partition's first sync starts (later runs go on from the watermark). */
  readonly since: number | undefined;
  /** Where a first sync starts without --since: this many days back (or an endpoint horizon if shorter). */
  readonly historyDays: number;
  /** Windows end this long before min(server time, local time). */
  readonly safetyLagMs: number;
  /** Mutable streams re-read this many days before the watermark. */
  readonly lookbackDays: number;
  /** Kept between our horizon start and the server's, so clock drift never trips 40704. */
  readonly horizonMarginMs: number;
  /** Partitions run at once (p-limit). */
  readonly concurrency: number;
  /** Windows of one partition walked at once on a long plan (1 = one after another). */
  readonly parallelWindows: number;
  /** Spot symbols for E13; undefined = every online symbol of the public list. */
  readonly symbols: readonly string[] | undefined;
  /** Stream names to run; undefined = all. */
  readonly streams: readonly string[] | undefined;
  /** Per-stream window span overrides in days (e.g. the tax endpoints' 30 or 366). */
  readonly windowDays: Readonly<Record<string, number>>;
}

/** The config's `client` section: how the exchange client calls, retries and budgets. */
export interface ClientSettings {
  readonly safetyFactor: number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly timeoutMs: number;
  readonly rateLimit: boolean;
  /** The largest local-vs-exchange clock difference corrected silently; beyond it the run is refused. */
  readonly maxClockSkewMs: number;
  /**
   * Names the address whose per-IP budgets (public endpoints, the overall limit) this process
   * shares with every other that gives the same name, in the database's `rate_budgets`; default
   * the host name. Hosts behind one NAT address give one name.
   */
  readonly budgetAddress?: string;
}

/**
 * Everything one sync run needs: the config's sections as they are, plus the run's database and
 * progress sink.
 *
 * @example
 * await runSync({ db, emit: progress.sink, baseUrl: config.baseUrl, accounts: config.accounts, sync: config.sync, client: config.client });
 */
export interface SyncOptions {
  readonly db: Kysely<any>;
  /**
   * Where the per-address rate budgets are reserved (PgRateStore), when not `db`: a connection of
   * their own, so that a request's reservation does not queue for a connection behind the loading
   * statements. Each request waits for its reservation before it is sent; behind a busy pool that
   * took up to 250 ms in a first sync's first seconds, on the E5 requests that set its length.
   */
  readonly rateDb?: Kysely<any>;
  readonly baseUrl: string;
  readonly accounts: readonly SyncAccount[];
  readonly sync: SyncSettings;
  readonly client: ClientSettings;
  readonly emit: SyncEventSink;
  /**
   * The exchange clock's offset, measured already (a worker measures it once per process, see
   * measureClockOffset: many short jobs on one machine would otherwise spend the per-IP budget
   * of the public endpoint it reads); undefined: measured at the start of the run.
   */
  readonly clockOffsetMs?: number;
  /**
   * Aborted: the run asks for no further page and starts no further partition; what it read is
   * committed, the partitions under way fail with SYNC_STOPPED and the run ends 'failed' (a
   * worker handing its job back at SIGTERM).
   */
  readonly signal?: AbortSignal;
  /**
   * Kept in the run's sync_runs.options beside what the run records itself: the demo names its
   * sandbox world there (extract/demoWorld.ts, demoRunNote).
   */
  readonly runNote?: Readonly<Record<string, unknown>>;
}
