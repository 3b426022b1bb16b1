import type { Kysely } from 'kysely';
import type { EndpointName } from '../api/endpoints.js';
import type { SymbolCoins } from '../load/feeRows.js';
import type { SyncEventSink } from './syncEvent.js';

/** The times every stream of one run plans its windows with (Unix ms). */
export interface RunTiming {
  /** min(server time, local time) when the run started. */
  readonly now: number;
  readonly safetyLagMs: number;
  readonly since: number | undefined;
  /** Where a first sync starts without --since. */
  readonly defaultStart: number;
  readonly lookbackMs: number;
  readonly horizonMarginMs: number;
}

/**
 * Everything a stream needs while it runs for one account: the database, the signed call into
 * the exchange (rate budget and retries live behind it), the account, the run and its timing.
 * Plain data and functions, so the engine never reaches for a global.
 */
export interface AccountRun {
  readonly db: Kysely<any>;
  readonly call: (endpoint: EndpointName, params: Record<string, string>) => Promise<unknown>;
  readonly account: { readonly uid: string; readonly name: string; readonly demo: boolean; readonly main: boolean };
  readonly runId: string;
  /** The one snapshot time every snapshot row of this run carries (ISO). */
  readonly snapshotAt: string;
  readonly timing: RunTiming;
  /** Per-stream window span overrides in days (e.g. the tax endpoints' 30 or 366). */
  readonly windowDays: Readonly<Record<string, number>>;
  readonly coinsOf: SymbolCoins;
  /** Windows of one partition walked at once on a long plan (1 = one after another). */
  readonly parallelWindows: number;
  readonly emit: SyncEventSink;
}
