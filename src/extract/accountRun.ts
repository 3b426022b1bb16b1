import type { Kysely } from 'kysely';
import type { EndpointName } from '../api/endpoints.js';
import type { SymbolCoins } from '../load/feeRows.js';
import type { SyncEventSink } from './syncEvent.js';
import type { SyncSettings } from './syncOptions.js';

/**
 * Everything a stream needs while it runs for one account: the database, the signed call into
 * the exchange (rate budget and retries live behind it), the account, the run, its start time
 * and the config's sync settings as they are. Plain data and functions, so the engine never
 * reaches for a global.
 */
export interface AccountRun {
  readonly db: Kysely<any>;
  readonly call: (endpoint: EndpointName, params: Record<string, string>) => Promise<unknown>;
  readonly account: { readonly uid: string; readonly name: string; readonly demo: boolean; readonly main: boolean };
  readonly runId: string;
  /** min(server time, local time) when the run started (Unix ms): every window plan of the run ends from it. */
  readonly now: number;
  /** The one snapshot time every snapshot row of this run carries (ISO). */
  readonly snapshotAt: string;
  readonly settings: SyncSettings;
  readonly coinsOf: SymbolCoins;
  readonly emit: SyncEventSink;
  /** Throws SYNC_LOCK_LOST once the run's account lock is gone: called before each page is asked for. */
  readonly assertHeld: () => void;
}
