import type { LedgerArrivals } from './ledgerArrivals.js';
import type { EndpointName } from '../api/endpoints.js';
import type { Kysely } from 'kysely';
import type { Column } from '../load/column.js';
import type { FeeForm } from '../load/feeRows.js';
import type { AccountRun } from './accountRun.js';
import type { StreamCounts } from './streamCounts.js';

/** What a stream needs to know about the account it runs for, to choose its partitions. */
export interface PartitionContext {
  readonly demo: boolean;
  readonly main: boolean;
  /** Spot symbols to ask E13 about (config, or the public symbol list). */
  readonly symbols: () => Promise<readonly string[]>;
  /** Sub-account UIDs of a main account (E10), for E8. */
  readonly subAccountUids: () => Promise<readonly string[]>;
  /** The account's signed call, for partitions that come from another endpoint's answer. */
  readonly call?: SnapshotCall;
}

/** One partition of a stream: its sync_state key, the extra query it sends, the column it fills. */
export interface Partition {
  readonly key: string;
  readonly params: Readonly<Record<string, string>>;
  /** Typed columns set from the partition rather than the record (e.g. product_type). */
  readonly columns: Readonly<Record<string, string>>;
}

/** A page as the stream reads it: records newest first, and the cursor for the next older page. */
export interface Page {
  readonly records: readonly Record<string, unknown>[];
  /**
   * Entries of the list that are not JSON objects (a string, null, a number, an array): kept raw
   * and flagged, never dropped, and counted when the engine asks whether the page was full.
   */
  readonly others: readonly unknown[];
  /** The cursor for the next page: the endpoint's own (`cursorFromServer`), else the smallest record id. */
  readonly next: string | undefined;
  /** `next` is a cursor field of the answer (endId, minId), not read from the records. */
  readonly cursorFromServer: boolean;
}


/**
 * One declarative history stream: everything the engine needs to walk an endpoint's windows and
 * pages and load them into one table. Streams hold no logic beyond reading their own page shape.
 *
 * @example
 * export const marginRecords: HistoryStream = { name: 'marginRecords', endpoint: 'marginRecords', ... };
 */
export interface HistoryStream {
  readonly kind: 'history';
  readonly name: string;
  readonly endpoint: EndpointName;
  /** Target table; its primary key is account_uid plus `key`. */
  readonly table: string;
  readonly key: readonly string[];
  readonly partitions: (ctx: PartitionContext) => Promise<readonly Partition[]> | readonly Partition[];
  /** Window span in days; undefined when the endpoint has no span limit (one window). */
  readonly spanDays: number | undefined;
  readonly limit: number;
  /** How far back the endpoint can see; older history is recorded as a gap. */
  readonly horizonDays: number | undefined;
  /** Records change after creation (status, fills): re-read the configured look-back each run. */
  readonly mutable: boolean;
  /**
   * Only records not final yet can change, and each is known (view `open_records`): the look-back
   * starts where re-reading costs least (lookbackStart.ts), from the watermark (every open record
   * asked for by id through `recheckOpen`) back to the oldest open record inside the look-back
   * (re-walked as pages), instead of always the whole look-back. For a stream whose records get
   * their time when they are made, so none can appear later inside a window already read (orders:
   * the exchange stamps cTime at creation), and that has an id lookup. `timeColumn` is the table's
   * column of the record time the windows walk; `partitionColumn` the column holding a
   * partition's key (a partitioned stream: its open records carry the key as partition_hint).
   */
  readonly lookbackOpenOnly?: { readonly timeColumn: string; readonly partitionColumn?: string };
  /**
   * A current-state endpoint (pending trigger orders): it lists only records still current, so
   * each run re-reads from the oldest record that was current at the last run (or the look-back,
   * if earlier), and stamps last_seen_at on every record it sees.
   */
  readonly current?: {
    /**
     * An estimate of the oldest record current at the last run, for a partition whose
     * checkpoint has no `current_from` yet (a database synced by an earlier version).
     */
    readonly oldestCurrent: (db: Kysely<any>, account: string, partition: Partition) => Promise<number | undefined>;
  };
  /** The record field holding its time (ms), used for sanity checks and reports. */
  readonly timeField: string;
  readonly idField: string;
  readonly readPage: (data: unknown) => Page;
  readonly columns: Readonly<Record<string, Column>>;
  readonly fees?: FeeForm;
  /** Runs for demo accounts (futures streams with demo product types) or not. */
  readonly demo: boolean;
  /** Runs for sub-accounts. */
  readonly sub: boolean;
  /**
   * The stream reads the public spot symbol list (X10): as partitions (`ctx.symbols()`), or for
   * its fee rows (the coin a spot order receives). The engine fetches the list once per run,
   * before the streams start, when a selected stream declares it.
   */
  readonly needsSymbols?: boolean;
  /**
   * How a record whose status is not final yet (view `open_records`, sql/schema/views/open_records.sql) is asked for again
   * when the walk's windows no longer reach it (older than the look-back, or beyond the
   * horizon): re-checked after each walk, every run, until it is final.
   */
  readonly recheckOpen?: OpenRecheck;
}

/**
 * How a history stream re-reads one record still open (pending, Processing, live) that this
 * run's windows did not cover, so its later settling is recorded however old it is. The cost is
 * one request per open record (per distinct moment, by time), none when nothing is open.
 * - `id`: an endpoint that answers one record by its id (E15 for spot orders, E20 and X3 with
 *   orderId, E13 with orderId), sent with the partition's parameters; `sendTime` adds the
 *   record's moment as startTime/endTime (E13 requires a startTime);
 * - `time`: no id lookup (E19): the window [time, time + 1 ms) is read again with the
 *   partition's parameters, paged and checked like any window.
 * The engine loads the answers as the walk does (without a checkpoint).
 */
export type OpenRecheck =
  | { readonly by: 'id'; readonly endpoint: EndpointName; readonly idParam: string; readonly sendTime?: boolean }
  | { readonly by: 'time' };

/**
 * One snapshot stream: state the exchange shows only "as of now", stored with snapshot_at each
 * run. `fetch` pages the endpoint itself (snapshot endpoints have no time windows).
 */
export interface SnapshotStream {
  readonly kind: 'snapshot';
  readonly name: string;
  readonly endpoint: EndpointName;
  readonly table: string;
  /** The table's primary key without snapshot_at. */
  readonly key: readonly string[];
  /** Column naming the account: account_uid, or main_uid for sub-account listings; null when global. */
  readonly accountColumn: 'account_uid' | 'main_uid' | null;
  readonly partitions: (ctx: PartitionContext) => Promise<readonly Partition[]> | readonly Partition[];
  /** The entries of the answer, objects or not (an entry that is not an object is kept raw and flagged). */
  readonly fetch: (call: SnapshotCall, partition: Partition) => Promise<readonly unknown[]>;
  readonly columns: Readonly<Record<string, Column>>;
  readonly demo: boolean;
  readonly sub: boolean;
  /** Global streams (demo contracts) run once per sync, not per account. */
  readonly global?: boolean;
  /** The record shape checkRecord knows these records by, when not the stream's name. */
  readonly shape?: string;
  /** Runs only when named in --streams (extra requests few users need). */
  readonly optIn?: boolean;
}

export type SnapshotCall = (endpoint: EndpointName, params: Record<string, string>) => Promise<unknown>;

/**
 * A stream that reads what the other streams stored to decide what to fetch (prices: candles for
 * the ledger's coins and times). It runs once per sync through the first non-demo account's
 * client and keeps its own bookkeeping. It starts once every partition of an endpoint faster
 * than 1 request/s is done, beside the slow ones still walking (E5 at 1 request/s); `rest`, given
 * only while one of those is still running, settles when they are done: the stream then reads
 * what they stored since (runSync.ts).
 */
/**
 * When a derived stream may read what the others stored. `arrivals` (when given) names each
 * account's table as its history job ends, for early passes while the others still walk; it is
 * closed when every endpoint faster than 1 request/s is done, and `ready` then resolves: `rest`
 * is the promise of the slow jobs still running, or undefined when they were already done.
 */
export interface DerivedTiming {
  readonly arrivals?: LedgerArrivals;
  /**
   * After `ready`, while the slow jobs still walk: each account's table as its pages are stored
   * (at most every few seconds; runSync.ts `slowPagesTo`). Closed when every job is done.
   */
  readonly slowArrivals?: LedgerArrivals;
  readonly ready: Promise<{ readonly rest: Promise<void> | undefined }>;
}

export interface DerivedStream {
  readonly kind: 'derived';
  readonly name: string;
  readonly endpoint: EndpointName;
  readonly run: (run: AccountRun, timing?: DerivedTiming) => Promise<StreamCounts>;
  readonly demo: false;
  readonly sub: false;
}

export type Stream = HistoryStream | SnapshotStream | DerivedStream;
