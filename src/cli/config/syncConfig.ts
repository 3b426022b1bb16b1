import type { ClientSettings, SyncAccount, SyncSettings } from '../../extract/syncOptions.js';

/**
 * The frozen, fully layered configuration of one command run (defaults, then the file, then the
 * environment, then the flags). Passed explicitly; never a global. Account secrets live only in
 * memory and are hidden from JSON and inspection.
 */
export interface SyncConfig {
  /** The config file path, or 'environment' when the one account came from TRADELEDGER_* variables. */
  readonly source: string;
  readonly baseUrl: string;
  readonly databaseUrl: string | undefined;
  readonly accounts: readonly SyncAccount[];
  readonly sync: SyncSettings;
  /** The workers' nightly enqueue (cron pattern, UTC); undefined = none. Validated when loaded. */
  readonly schedule: string | undefined;
  readonly worker: {
    readonly concurrency: number;
    readonly heartbeatMs: number;
    readonly sweepMs: number;
    readonly staleMs: number;
    /** On SIGTERM, how long a running sync may go on before its job is handed back. */
    readonly stopGraceMs: number;
  };
  readonly client: ClientSettings;
}

/** The defaults every layer starts from. */
export const configDefaults = {
  baseUrl: 'https://api.bitget.com',
  historyDays: 730,
  safetyLagSeconds: 120,
  lookbackDays: 7,
  horizonMarginSeconds: 300,
  concurrency: 32,
  parallelWindows: 4,
  safetyFactor: 0.95,
  maxRetries: 6,
  retryBaseMs: 250,
  timeoutMs: 15_000,
  maxClockSkewSeconds: 60,
  workerConcurrency: 2,
  workerHeartbeatSeconds: 10,
  workerSweepSeconds: 15,
  workerStaleSeconds: 60,
  workerStopGraceSeconds: 10,
} as const;
