import type { ProductType } from '../../api/endpoints.js';
import type { CoinInfo, SymbolInfo } from '../../api/records/public.js';
import type { ContractConfig, FuturesAccount, Position } from '../../api/records/mix.js';
import type { SubAccount } from '../../api/records/user.js';
import type {
  HistoryRecords, HistoryResource, PartitionKey, SandboxAccount, SandboxKey, Series, TruthRecord, World, WorldOptions,
} from '../world.js';
import { buildAccounts, type SubAccountMeta } from './buildAccounts.js';
import { coinList, symbolList } from './catalog.js';
import { partitionsOf } from './partitionsOf.js';
import { parseScale } from './scalePlan.js';
import { SeriesBook } from './seriesBook.js';
import { settlePass } from './settlePass.js';
import { settleOne } from './settleOne.js';
import { contractsOf } from './snapshots/contractsOf.js';
import { futuresAccountsOf } from './snapshots/futuresAccountsOf.js';
import { positionsOf } from './snapshots/positionsOf.js';
import { subAccountsOf } from './snapshots/subAccountsOf.js';
import { placeFuturesOrder } from './writes/futuresOrderDesk.js';
import { SpotOrderDesk } from './writes/spotOrderDesk.js';
import { createSubAccount, createSubAccountKey } from './writes/subAccountDesk.js';
import { withdraw } from './writes/withdrawalDesk.js';
import type { WorldCore } from './writes/worldCore.js';

class SandboxWorld implements World, WorldCore {
  readonly accounts: SandboxAccount[];
  readonly subMeta: Map<string, SubAccountMeta>;
  readonly book: SeriesBook;
  private readonly spotDesk: SpotOrderDesk;
  private readonly anchor: number;
  private readonly frozen: boolean;
  private offset = 0;
  private serial = 0;
  private rounds = 0;

  constructor(readonly seed: number, scale: string, now: number | undefined, clients: number) {
    this.frozen = now !== undefined;
    this.anchor = now ?? Date.now();
    const plan = parseScale(scale, 3, clients);
    ({ accounts: this.accounts, subMeta: this.subMeta } = buildAccounts(seed, plan.subAccounts, this.anchor, clients));
    this.book = new SeriesBook(seed, this.accounts, plan, this.anchor);
    this.spotDesk = new SpotOrderDesk(this);
  }

  now(): number {
    return (this.frozen ? this.anchor : Date.now()) + this.offset;
  }

  nextSerial(): number {
    return this.serial++;
  }

  account(uid: string): SandboxAccount | undefined {
    return this.accounts.find((a) => a.uid === uid);
  }

  keyOwner(apiKey: string): { account: SandboxAccount; key: SandboxKey } | undefined {
    for (const account of this.accounts) {
      const key = account.keys.find((k) => k.apiKey === apiKey);
      if (key !== undefined) return { account, key };
    }
    return undefined;
  }

  series<R extends HistoryResource>(uid: string, resource: R, partition: PartitionKey): Series<HistoryRecords[R]> {
    return this.book.get(uid, resource, partition);
  }

  partitions(resource: HistoryResource): PartitionKey[] {
    return partitionsOf(resource);
  }

  positions(uid: string, productType: ProductType): Position[] {
    const a = this.account(uid);
    if (a === undefined || productType.startsWith('S') !== a.demo) return [];
    return positionsOf(this.seed, uid, productType, this.now());
  }

  futuresAccounts(uid: string, productType: ProductType): FuturesAccount[] {
    const a = this.account(uid);
    if (a === undefined || productType.startsWith('S') !== a.demo) return [];
    return futuresAccountsOf(this.seed, uid, productType, a.copyTrader && productType === 'COIN-FUTURES',
      (coin) => this.book.walletBalance(uid, 'futuresBills', productType, coin));
  }

  contracts(productType: string): ContractConfig[] {
    return contractsOf(productType);
  }

  coins(): CoinInfo[] {
    return coinList();
  }

  symbols(): SymbolInfo[] {
    return symbolList();
  }

  subAccounts(mainUid: string): SubAccount[] {
    return subAccountsOf(this.accounts, this.subMeta, mainUid);
  }

  placeSpotOrder(uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string } {
    return this.spotDesk.place(uid, order);
  }

  placeFuturesOrder(uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string } {
    return placeFuturesOrder(this, uid, order);
  }

  cancelReplace(uid: string, item: Record<string, string | undefined>): { orderId: string; clientOid: string | null; success: 'success' | 'failure'; msg: string } {
    return this.spotDesk.cancelReplace(uid, item);
  }

  createSubAccount(mainUid: string, item: Parameters<World['createSubAccount']>[1]): { account: SandboxAccount; key: SandboxKey } {
    return createSubAccount(this, mainUid, item);
  }

  createSubAccountKey(mainUid: string, subUid: string, item: Parameters<World['createSubAccountKey']>[2]): SandboxKey {
    return createSubAccountKey(this, mainUid, subUid, item);
  }

  withdraw(uid: string, req: Record<string, string | undefined>): { orderId: string; clientOid: string } {
    return withdraw(this, uid, req);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a non-negative number of ms, got ${ms}`);
    const oldNow = this.now();
    this.offset += Math.floor(ms);
    const newNow = this.now();
    this.book.grow(oldNow, newNow);
    settlePass(this.book, oldNow, newNow, ++this.rounds);
  }

  settle(uid: string, resource: HistoryResource, id: string): boolean {
    for (const partition of partitionsOf(resource)) {
      const i = this.book.get(uid, resource, partition).indexOf(id);
      if (i >= 0) return settleOne(this.book, uid, resource, partition, i, this.now());
    }
    return false;
  }

  truth(): Iterable<TruthRecord> {
    return this.book.truth();
  }
}

/**
 * Builds the sandbox's world: accounts, keys and lazily generated history, deterministic from
 * `seed` and `now` (see scalePlan.ts for the `scale` syntax). Throws ScaleError for a bad scale.
 *
 * @example
 * const world = createWorld({ seed: 1, scale: 'tiny', now: Date.UTC(2026, 0, 1) });
 * const main = world.accounts[0]!;
 * world.series(main.uid, 'spotOrders', 'all').query({ limit: 100 });
 */
export function createWorld(options: WorldOptions): World {
  return new SandboxWorld(options.seed, options.scale, options.now, options.clientAccounts ?? 0);
}
