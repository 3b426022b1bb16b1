import type { Permission, ProductType } from '../api/endpoints.js';
import type { SpotOrder, SpotFill, SpotBill } from '../api/records/spot.js';
import type { MarginRecord, CrossMarginOrder } from '../api/records/margin.js';
import type {
  FuturesHistoryOrder, FuturesFill, FuturesBill, PlanOrder, Position, FuturesAccount, ContractConfig,
} from '../api/records/mix.js';
import type { DepositRecord, WithdrawalRecord, TransferRecord } from '../api/records/wallet.js';
import type { SubAccount } from '../api/records/user.js';
import type { TaxSpotRecord, TaxFutureRecord } from '../api/records/tax.js';
import type { CoinInfo, SymbolInfo } from '../api/records/public.js';

/**
 * The contract between the sandbox's data (src/sandbox/data) and its HTTP server
 * (src/sandbox/server). The server validates requests and wraps answers; the world owns every
 * record, every id and every mutation.
 */

export interface SandboxKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  perms: Permission[];
  /** Empty means any IP. */
  ipList: string[];
  label: string;
  /**
   * An RSA API key: requests are verified with this public key (SHA256withRSA), and `secretKey`
   * holds the matching PEM private key, printed like every fake sandbox secret.
   */
  rsaPublicKey?: string;
}

export interface SandboxAccount {
  uid: string;
  name: string;
  main: boolean;
  /** ND broker main account: the only kind allowed to call E9. */
  broker: boolean;
  /** A demo account: its keys must send `paptrading: 1` and it trades S-prefixed coins. */
  demo: boolean;
  /** Copy-trading trader: E1 and E17 drop to 1 request/second. */
  copyTrader: boolean;
  parentUid: string | null;
  subUids: string[];
  keys: SandboxKey[];
}

/** Every paged history resource, with the record type it holds. */
export interface HistoryRecords {
  spotOrders: SpotOrder;
  spotFills: SpotFill;
  spotBills: SpotBill;
  marginRecords: MarginRecord;
  crossMarginOrders: CrossMarginOrder;
  futuresOrders: FuturesHistoryOrder;
  futuresFills: FuturesFill;
  futuresBills: FuturesBill;
  planOrders: PlanOrder;
  deposits: DepositRecord;
  withdrawals: WithdrawalRecord;
  transfers: TransferRecord;
  taxSpotRecords: TaxSpotRecord;
  taxFutureRecords: TaxFutureRecord;
}
export type HistoryResource = keyof HistoryRecords;

/**
 * Partition keys. `marginRecords`: 'crossed' | 'isolated'. futures resources (futuresOrders,
 * futuresFills, futuresBills, planOrders): a product type. Everything else: 'all'.
 */
export type PartitionKey = string;

export interface HistoryQuery<T> {
  /** Inclusive, Unix ms, on the record's time field. */
  startTime?: number;
  /** Exclusive, Unix ms. */
  endTime?: number;
  /** Only records whose id (as an integer) is below this. */
  idLessThan?: bigint;
  limit: number;
  /** Extra server-side filters (coin, symbol, orderId, subUid, ...). */
  filter?: (record: T) => boolean;
  /**
   * Equality conditions on string fields that `filter` implies (it rejects every record failing
   * one): a series may skip records it knows fail them without building them.
   */
  where?: readonly (readonly [field: string, value: string])[];
}

/**
 * One account's series of one resource, sorted by id; ids are decimal integer strings that grow
 * with time, so time order and id order agree (several records may share a timestamp).
 */
export interface Series<T> {
  /** Newest first, as the real endpoints answer. */
  query(q: HistoryQuery<T>): T[];
  /** Number of records (for tests and the truth dump). */
  readonly size: number;
  /** All records oldest first (truth dump, tests). May be lazy over a large series. */
  all(): Iterable<T>;
  /** Look one record up by its id. */
  get(id: string): T | undefined;
}

export interface TruthRecord {
  uid: string;
  resource: HistoryResource;
  partition: PartitionKey;
  /** The record's natural id within (uid, resource, partition). */
  id: string;
  record: unknown;
}

export interface WorldOptions {
  seed: number;
  /** Named preset ('tiny' | 'small' | 'medium' | 'large' | 'xl') or explicit per-account record count. */
  scale: string;
  /** Anchor time; the generated history ends here. Defaults to the current time. */
  now?: number;
  /** Extra standalone main accounts (a firm's clients), each with its own UID, key and data; default 0. */
  clientAccounts?: number;
}

export interface World {
  readonly seed: number;
  readonly accounts: SandboxAccount[];
  /** Current sandbox time (ms); the real clock unless a test moves it. */
  now(): number;

  account(uid: string): SandboxAccount | undefined;
  keyOwner(apiKey: string): { account: SandboxAccount; key: SandboxKey } | undefined;

  series<R extends HistoryResource>(uid: string, resource: R, partition: PartitionKey): Series<HistoryRecords[R]>;
  partitions(resource: HistoryResource): PartitionKey[];

  // Snapshots.
  positions(uid: string, productType: ProductType): Position[];
  futuresAccounts(uid: string, productType: ProductType): FuturesAccount[];
  contracts(productType: string): ContractConfig[];
  coins(): CoinInfo[];
  symbols(): SymbolInfo[];
  subAccounts(mainUid: string): SubAccount[];

  // Writes (E1, E3, E4, E6, E7, E9, E17, E18). Each returns what the endpoint answers or throws
  // a WorldError carrying the exchange error code.
  placeSpotOrder(uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string };
  placeFuturesOrder(uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string };
  cancelReplace(uid: string, item: Record<string, string | undefined>): { orderId: string; clientOid: string | null; success: 'success' | 'failure'; msg: string };
  createSubAccount(mainUid: string, item: { subAccountName: string; passphrase: string; label: string; ipList?: string[]; permList?: Permission[] }): { account: SandboxAccount; key: SandboxKey };
  createSubAccountKey(mainUid: string, subUid: string, item: { passphrase: string; label: string; ipList?: string[]; permList?: Permission[] }): SandboxKey;
  withdraw(uid: string, req: Record<string, string | undefined>): { orderId: string; clientOid: string };

  // Test controls, reachable over HTTP at /_sandbox/*.
  /** Moves time forward: new records appear in every series, pending/live records settle. */
  advance(ms: number): void;
  /** Settles one record: a pending deposit/withdrawal to success, a live order to filled, a Processing transfer to Successful. */
  settle(uid: string, resource: HistoryResource, id: string): boolean;

  /** Every record the history endpoints can return. */
  truth(): Iterable<TruthRecord>;
}

/** A failure a world operation reports with the exchange's own code and message. */
export class WorldError extends Error {
  constructor(readonly code: string, message: string, readonly httpStatus = 400) {
    super(message);
    this.name = 'WorldError';
  }
}
