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

/** Everything one sync run needs. Built by the CLI from the frozen config. */
export interface SyncOptions {
  readonly db: Kysely<any>;
  readonly baseUrl: string;
  readonly accounts: readonly SyncAccount[];
  /** Stream names to run; undefined = all. */
  readonly streams: readonly string[] | undefined;
  readonly since: number | undefined;
  readonly defaultHistoryDays: number;
  readonly safetyLagMs: number;
  readonly lookbackDays: number;
  readonly horizonMarginMs: number;
  readonly windowDays: Readonly<Record<string, number>>;
  readonly concurrency: number;
  /** Windows of one partition walked at once on a long plan; default 4 (1 = one after another). */
  readonly parallelWindows?: number;
  /** Spot symbols for E13; undefined = every online symbol of the public list. */
  readonly symbols: readonly string[] | undefined;
  readonly client: {
    readonly safetyFactor: number;
    readonly maxRetries: number;
    readonly retryBaseMs: number;
    readonly timeoutMs: number;
    readonly rateLimit: boolean;
    /** The largest local-vs-exchange clock difference corrected silently; beyond it the run is refused. */
    readonly maxClockSkewMs: number;
  };
  readonly emit: SyncEventSink;
  /**
   * The exchange clock's offset, measured already (a worker measures it once per process, see
   * measureClockOffset: many short jobs on one machine would otherwise spend the per-IP budget
   * of the public endpoint it reads); undefined: measured at the start of the run.
   */
  readonly clockOffsetMs?: number;
}
