import type { HistoryRecords, HistoryResource, SandboxAccount, TruthRecord } from '../world.js';
import { badRecordIndex, badRecordPlan, spoil } from './badRecords.js';
import { ID_PER_MS, lazyChunk, type Chunk } from './chunk.js';
import { BalancedSeries } from './balancedSeries.js';
import { ChunkedSeries } from './chunkedSeries.js';
import { counterLegsOf, counterSources, counterTargetsOf, type CounterLeg, type CounterTarget } from './counterLegs.js';
import {
  futuresBillRules, HISTORY_LEAD_MS, marginCoins, marginRecordRules, OPENING_OFFSET_MS, openingBill, openingCoins, openingDeposit,
  spotBillRules, unitsText, WALLET_OPENING_DELAY_MS,
} from './openingBalances.js';
import { marginCoinsOf } from './catalog.js';
import type { ProductType } from '../../api/endpoints.js';
import type { AccountType, TransferRecord } from '../../api/records/wallet.js';
import type { FuturesBill } from '../../api/records/mix.js';
import type { MarginRecord } from '../../api/records/margin.js';
import type { SpotBill } from '../../api/records/spot.js';
import { hexId } from './generators/genContext.js';
import { recordRng } from './rng.js';
import { spotLegSources, spotLegsOf, spotLegTargetsOf } from './spotLegs.js';
import { mergedChunk, type PlacedRecords } from './mergedChunk.js';
import type { GenContext } from './generators/genContext.js';
import { generatorFor } from './generators/generatorFor.js';
import { dataPartitionsOf, partitionsOf } from './partitionsOf.js';
import { resourceKeys } from './resourceKeys.js';
import { hashKey } from './rng.js';
import { historyResources, type ScalePlan } from './scalePlan.js';

const DAY = 86_400_000;
/** How far back generated history reaches. */
export const HISTORY_SPAN_MS = 730 * DAY;
/** Pending trigger orders are current orders: they reach back weeks, not years (E11 sees 90 days). */
const PLAN_SPAN_MS = 60 * DAY;
/**
 * Records this close to the end of their chunk may still be open (live, pending, Processing); in
 * test worlds (ScalePlan.staleOpen) also the last six of every chunk, however old.
 */
export const OPEN_WINDOW_MS = 2 * DAY;

type AnySeries = ChunkedSeries<HistoryRecords[HistoryResource]>;

/** One series with what it takes to grow it. */
export interface SeriesEntry {
  uid: string;
  resource: HistoryResource;
  partition: string;
  series: AnySeries;
  /** Records per ms at which `advance` grows the series. */
  density: number;
  carry: number;
  chunks: number;
  salt: bigint;
  base: Omit<GenContext, 'key' | 'openFrom' | 'chunkEnd' | 'prevTime' | 'timeAt'>;
}

const keyOf = (uid: string, resource: string, partition: string): string => `${uid}|${resource}|${partition}`;

/** A record placed into a series that no generated record implies (an opening balance). */
interface ExtraRecord {
  key: string;
  time: number;
  build: (id: bigint, time: number) => HistoryRecords[HistoryResource];
}

const legSources: readonly HistoryResource[] = [...new Set([...counterSources, ...spotLegSources])];

/** A series' next generated chunk, before the counter legs of other series are placed into it. */
interface PendingChunk {
  entry: SeriesEntry;
  chunk: Chunk<HistoryRecords[HistoryResource]>;
  ctx: GenContext;
}

/**
 * Every (account, resource, partition) series of a world, generated lazily from the seed, and
 * the one place that appends to them (writes and `advance`), so ids stay monotone.
 *
 * @example
 * const book = new SeriesBook(1, accounts, parseScale('tiny'), Date.now());
 * book.get(uid, 'spotOrders', 'all').query({ limit: 10 });
 */
export class SeriesBook {
  private readonly entries = new Map<string, SeriesEntry>();
  /** When the world's opening balances are declared (its first day). */
  readonly openingAt: number;

  /** See ScalePlan.staleOpen. */
  private readonly staleOpen: boolean;

  constructor(private readonly seed: number, private readonly accounts: SandboxAccount[], plan: ScalePlan, now: number) {
    this.staleOpen = plan.staleOpen ?? true;
    this.openingAt = now - HISTORY_SPAN_MS + OPENING_OFFSET_MS;
    const pending: PendingChunk[] = [];
    accounts.forEach((account, accountIndex) => {
      for (const resource of historyResources) {
        const span = resource === 'planOrders' ? PLAN_SPAN_MS : HISTORY_SPAN_MS;
        // History begins a day after the world's start, after the opening balances.
        const start = resource === 'planOrders' ? now - span : now - span + HISTORY_LEAD_MS;
        const parts = dataPartitionsOf(resource, account.demo);
        const total = (account.demo ? plan.demoPerAccount : plan.perAccount)[resource];
        parts.forEach((partition, p) => {
          const count = Math.round(total / parts.length);
          const entry = this.entry(account, accountIndex, resource, partition, p, now);
          entry.density = count / span;
          pending.push({ entry, ...this.chunk(entry, count, start, now - 1) });
        });
      }
    });
    this.addChunks(pending, this.openings());
    for (const e of this.entries.values()) if (e.series instanceof BalancedSeries) e.series.sealInitial();
    const main = accounts[0];
    if (main !== undefined) {
      // The deliberately bad bill (badRecords.ts): bills are derived, so it is spoiled where served.
      const bills = this.get(main.uid, 'spotBills', 'all') as unknown as BalancedSeries<unknown>;
      if (bills.size > 0) bills.spoiled = badRecordIndex(bills.size);
    }
  }

  /**
   * The opening balances every account of the world (demo accounts aside: they hold no spot
   * wallet) declares at the world's first day: per coin, an on-chain deposit and its spot bill,
   * sized by the bill series' first pass (openingBalances.ts).
   */
  private openings(): ExtraRecord[] {
    const out: ExtraRecord[] = [];
    const at = this.openingAt;
    const walletAt = at + WALLET_OPENING_DELAY_MS;
    for (const account of this.accounts) {
      const uid = account.uid;
      const opening = (resource: HistoryResource, partition: string, coin: string) => (): string =>
        unitsText((this.get(uid, resource, partition) as unknown as BalancedSeries<unknown>).openingOf(coin));
      const push = (resource: HistoryResource, partition: string, time: number, build: (id: bigint, time: number) => unknown): void => {
        out.push({ key: keyOf(uid, resource, partition), time, build: build as ExtraRecord['build'] });
      };
      if (!account.demo) {
        for (const coin of openingCoins) {
          push('deposits', 'all', at, openingDeposit(coin, opening('spotBills', 'all', coin), uid));
          push('spotBills', 'all', at, openingBill(coin));
        }
      }
      // Futures and margin wallets open with a transfer from spot (E19, its spot bill, and the
      // wallet's own record of it); the demo account has no spot wallet: its futures wallets
      // open with the transfer-in bill alone, in demo coins.
      const wallets: { resource: 'futuresBills' | 'marginRecords'; partition: string; type: AccountType; coins: readonly string[] }[] = [];
      for (const partition of dataPartitionsOf('futuresBills', account.demo)) {
        const type = `${partition.replace(/^S/, '').replace('-FUTURES', '').toLowerCase()}_futures` as AccountType;
        wallets.push({ resource: 'futuresBills', partition, type, coins: marginCoinsOf(partition as ProductType) });
      }
      if (!account.demo) {
        for (const partition of dataPartitionsOf('marginRecords', false)) {
          wallets.push({ resource: 'marginRecords', partition, type: `${partition}_margin` as AccountType, coins: marginCoins });
        }
      }
      for (const w of wallets) {
        for (const coin of w.coins) {
          const size = opening(w.resource, w.partition, coin);
          if (!account.demo) {
            const rng = recordRng(hashKey(this.seed, uid, 'opening', w.partition, coin), 0);
            const clientOid = hexId(rng);
            push('transfers', 'all', walletAt, (id, time): TransferRecord => ({
              coin, status: 'Successful', toType: w.type, fromType: 'spot', size: size(), ts: String(time), clientOid,
              transferId: id.toString(), fromUserId: uid, toUserId: uid,
            }));
            push('spotBills', 'all', walletAt, (id, time): SpotBill => ({
              billId: id.toString(), coin, groupType: 'transfer', businessType: 'transfer-out', size: `-${size()}`, balance: '0', fees: '0', cTime: String(time),
            }));
          }
          if (w.resource === 'futuresBills') {
            push('futuresBills', w.partition, walletAt, (id, time): FuturesBill => ({
              billId: id.toString(), symbol: '', amount: size(), fee: '0', feeByCoupon: '0', businessType: 'trans_from_exchange', coin,
              balance: '0', cTime: String(time),
            }));
          } else {
            push('marginRecords', w.partition, walletAt, (id, time): MarginRecord => ({
              id: id.toString(), coin, symbol: w.partition === 'isolated' ? `${coin === 'USDT' ? 'BTC' : coin}USDT` : '', marginTaxType: 'transfer_in',
              amount: size(), fee: '0', total: '0', ts: String(time),
            }));
          }
        }
      }
    }
    return out;
  }

  /**
   * The spot balance of a coin after everything the account's spot bills hold (what E1 and
   * E18 check before they spend), as decimal text.
   *
   * @example
   * book.spotBalance(uid, 'USDT'); // '21300.5'
   */
  spotBalance(uid: string, coin: string): string {
    return unitsText((this.get(uid, 'spotBills', 'all') as unknown as BalancedSeries<unknown>).balanceOf(coin));
  }

  /** The series; an unknown account or partition gets an empty one. */
  get<R extends HistoryResource>(uid: string, resource: R, partition: string): ChunkedSeries<HistoryRecords[R]> {
    const e = this.entries.get(keyOf(uid, resource, partition));
    if (e !== undefined) return e.series as unknown as ChunkedSeries<HistoryRecords[R]>;
    const account = this.accounts.find((a) => a.uid === uid);
    if (account === undefined || !partitionsOf(resource).includes(partition)) return new ChunkedSeries<HistoryRecords[R]>();
    const created = this.entry(account, this.accounts.indexOf(account), resource, partition, 0, 0);
    return created.series as unknown as ChunkedSeries<HistoryRecords[R]>;
  }

  all(): Iterable<SeriesEntry> {
    return this.entries.values();
  }

  /** Appends a written record at time `t` (clamped to keep time order); returns it and its index. */
  append<R extends HistoryResource>(uid: string, resource: R, partition: string, t: number, build: (id: bigint, time: number) => HistoryRecords[R]): { record: HistoryRecords[R]; index: number } {
    const series = this.get(uid, resource, partition);
    const salt = this.entries.get(keyOf(uid, resource, partition))?.salt ?? 0n;
    const time = Math.max(t, series.lastTime());
    let id = BigInt(time) * ID_PER_MS + salt;
    if (id <= series.lastId()) id = series.lastId() + 1n;
    const record = build(id, time);
    return { record, index: series.append(record, time, id) };
  }

  /** Grows every series over (from, to] at its own density. */
  grow(from: number, to: number): void {
    const pending: PendingChunk[] = [];
    for (const e of this.entries.values()) {
      const expected = e.density * (to - from) + e.carry;
      const n = Math.floor(expected);
      const start = Math.max(from + 1, Number(e.series.lastId() / ID_PER_MS) + 1);
      // Groups of four need 4 ms each; records that do not fit yet wait for the next advance.
      if (n === 0 || to - 3 - start < 4 * (Math.ceil(n / 4) - 1)) {
        e.carry = expected;
        continue;
      }
      e.carry = expected - n;
      pending.push({ entry: e, ...this.chunk(e, n, start, to) });
    }
    this.addChunks(pending);
  }

  /**
   * Appends the counter legs of a record that just settled (an E19 transfer that became
   * Successful, an internal withdrawal that succeeded) at `now`.
   */
  appendCounterLegs(uid: string, resource: HistoryResource, record: unknown, now: number): void {
    for (const leg of this.legsOf(resource, record, uid)) {
      this.append(leg.uid, leg.resource, leg.partition, now, leg.build as (id: bigint, time: number) => HistoryRecords[typeof leg.resource]);
    }
  }

  private readonly inWorld = (uid: string): boolean => this.accounts.some((a) => a.uid === uid && !a.demo);

  /** Every leg a record leaves in other series: counter legs (counterLegs.ts), then spot bills (spotLegs.ts). */
  private legsOf(resource: HistoryResource, record: unknown, uid: string): CounterLeg[] {
    const counter = counterSources.includes(resource) ? counterLegsOf(resource, record, uid, this.inWorld) : [];
    return spotLegSources.includes(resource) ? [...counter, ...spotLegsOf(resource, record, uid, this.inWorld)] : counter;
  }

  private targetsOf(resource: HistoryResource, ctx: GenContext, j: number): CounterTarget[] {
    const counter = counterSources.includes(resource) ? counterTargetsOf(resource, ctx, j, this.inWorld) : [];
    return spotLegSources.includes(resource) ? [...counter, ...spotLegTargetsOf(resource, ctx, j, this.inWorld)] : counter;
  }

  /**
   * Adds the pending chunks, each with the counter legs the other pending chunks' records place
   * into its series (an own-account movement shows on both sides, at the same time), so every
   * own-account movement of the generated history has both legs.
   */
  private addChunks(pending: PendingChunk[], extra: ExtraRecord[] = []): void {
    // Per target series, the legs as parallel arrays (no object per leg: a 1M-record world has
    // hundreds of thousands): time, source chunk (index into pending; -1 - k for extra[k]),
    // record index, leg number.
    const placed = new Map<string, { times: number[]; src: number[]; js: number[]; ks: number[] }>();
    extra.forEach((x, k) => {
      let list = placed.get(x.key);
      if (list === undefined) placed.set(x.key, (list = { times: [], src: [], js: [], ks: [] }));
      list.times.push(x.time);
      list.src.push(-1 - k);
      list.js.push(0);
      list.ks.push(0);
    });
    let list: { times: number[]; src: number[]; js: number[]; ks: number[] } = { times: [], src: [], js: [], ks: [] };
    let lastUid = '';
    let lastResource = '';
    let lastPartition = '';
    pending.forEach(({ entry, chunk, ctx }, p) => {
      if (!legSources.includes(entry.resource)) return;
      for (let j = 0; j < chunk.count; j++) {
        // The record's shape says where its legs go; the record itself is built only when a
        // leg is read.
        const targets = this.targetsOf(entry.resource, ctx, j);
        for (let k = 0; k < targets.length; k++) {
          const target = targets[k]!;
          // Most legs go where the one before went (a fill's three bills): skip the key and lookup.
          if (target.uid !== lastUid || target.resource !== lastResource || target.partition !== lastPartition) {
            const key = keyOf(target.uid, target.resource, target.partition);
            let found = placed.get(key);
            if (found === undefined) placed.set(key, (found = { times: [], src: [], js: [], ks: [] }));
            list = found;
            lastUid = target.uid;
            lastResource = target.resource;
            lastPartition = target.partition;
          }
          list.times.push(chunk.timeAt(j));
          list.src.push(p);
          list.js.push(j);
          list.ks.push(k);
        }
      }
    });
    const placedOf = (list: { times: number[]; src: number[]; js: number[]; ks: number[] }): PlacedRecords<HistoryRecords[HistoryResource]> => {
      // Legs from several source series, in time order (stable: one source keeps its order).
      const order = stableTimeOrder(list.times);
      const times = Float64Array.from(order, (i) => list.times[i]!);
      const src = Int32Array.from(order, (i) => list.src[i]!);
      const js = Int32Array.from(order, (i) => list.js[i]!);
      const ks = Uint8Array.from(order, (i) => list.ks[i]!);
      // A fill leaves three bills side by side: its legs are read from one build of it.
      let lastSrc = 0;
      let lastJ = -1;
      let lastLegs: CounterLeg[] = [];
      return {
        count: times.length,
        timeAt: (b) => times[b]!,
        build: (b, id, time) => {
          const s = src[b]!;
          if (s < 0) return extra[-1 - s]!.build(id, time);
          if (s !== lastSrc || js[b] !== lastJ) {
            const { entry, chunk } = pending[s]!;
            lastLegs = this.legsOf(entry.resource, chunk.recordAt(js[b]!), entry.uid);
            lastSrc = s;
            lastJ = js[b]!;
          }
          return lastLegs[ks[b]!]!.build(id, time) as HistoryRecords[HistoryResource];
        },
      };
    };
    for (const { entry, chunk } of pending) {
      const key = keyOf(entry.uid, entry.resource, entry.partition);
      const list = placed.get(key);
      placed.delete(key);
      entry.series.addChunk(list === undefined ? chunk : mergedChunk(chunk, placedOf(list), entry.salt));
    }
    // Series that grew no records of their own this time still get their counter legs.
    for (const [key, list] of placed) {
      const [uid, resource, partition] = key.split('|') as [string, HistoryResource, string];
      this.get(uid, resource, partition);
      const entry = this.entries.get(key)!;
      entry.series.addChunk(mergedChunk(undefined, placedOf(list), entry.salt));
    }
  }

  *truth(): Iterable<TruthRecord> {
    for (const e of this.entries.values()) {
      const idField = resourceKeys[e.resource].id;
      for (const record of e.series.all()) {
        yield { uid: e.uid, resource: e.resource, partition: e.partition, id: String((record as unknown as Record<string, unknown>)[idField]), record };
      }
    }
  }

  /** A new series: the wallet records (spot bills, futures bills, margin records) carry running balances. */
  private seriesFor(resource: HistoryResource, partition: string): AnySeries {
    const walletAt = this.openingAt + WALLET_OPENING_DELAY_MS;
    if (resource === 'spotBills') return new BalancedSeries(spotBillRules(this.openingAt)) as unknown as AnySeries;
    if (resource === 'futuresBills') return new BalancedSeries(futuresBillRules(walletAt, marginCoinsOf(partition as ProductType))) as unknown as AnySeries;
    if (resource === 'marginRecords') return new BalancedSeries(marginRecordRules(walletAt)) as unknown as AnySeries;
    return new ChunkedSeries();
  }

  /**
   * The balance of a coin after everything a balanced series holds (spot bills, futures bills of
   * a product type, margin records of a margin type), as decimal text.
   *
   * @example
   * book.walletBalance(uid, 'futuresBills', 'USDT-FUTURES', 'USDT'); // '20400.12'
   */
  walletBalance(uid: string, resource: 'spotBills' | 'futuresBills' | 'marginRecords', partition: string, coin: string): string {
    return unitsText((this.get(uid, resource, partition) as unknown as BalancedSeries<unknown>).balanceOf(coin));
  }

  private entry(account: SandboxAccount, accountIndex: number, resource: HistoryResource, partition: string, p: number, now: number): SeriesEntry {
    // A copy: a sub-account created later must not change the history generated before it (the
    // counter legs were placed from it).
    const family = account.parentUid !== null ? [account.parentUid] : [...account.subUids];
    const entry: SeriesEntry = {
      uid: account.uid, resource, partition, density: 0, carry: 0, chunks: 0,
      series: this.seriesFor(resource, partition),
      salt: BigInt(hashKey(this.seed, account.uid, resource, partition) % 60_000) * 16n,
      base: {
        seed: this.seed, account, mainUid: account.parentUid ?? account.uid, peers: family, partition,
        coverOffset: accountIndex * 7 + p * 5, modernFrom: now - 365 * DAY,
      },
    };
    if (resource === 'spotFills') entry.base.orderBefore = this.generatedBefore(account.uid, 'spotOrders', 'all');
    if (resource === 'futuresFills') entry.base.orderBefore = this.generatedBefore(account.uid, 'futuresOrders', partition);
    this.entries.set(keyOf(account.uid, resource, partition), entry);
    return entry;
  }

  private chunk(e: SeriesEntry, count: number, start: number, end: number): { chunk: Chunk<HistoryRecords[HistoryResource]>; ctx: GenContext } {
    const chunkNo = e.chunks++;
    const key = hashKey(this.seed, e.uid, e.resource, e.partition, String(chunkNo));
    const ctx: GenContext = { ...e.base, key, openFrom: count, chunkEnd: end, prevTime: e.series.lastTime() };
    const generate = generatorFor(e.resource);
    const spoilAt = chunkNo === 0 && e.base.account === this.accounts[0]
      && badRecordPlan.some((b) => b.resource === e.resource && b.partition === e.partition) ? badRecordIndex(count) : -1;
    const chunk = lazyChunk({
      count, start, end, key, salt: e.salt,
      make: (j, t, id) => {
        const r = generate(ctx, j, t, id);
        return (j === spoilAt ? spoil(e.resource, r) : r) as HistoryRecords[HistoryResource];
      },
    });
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (chunk.timeAt(mid) < end - OPEN_WINDOW_MS) lo = mid + 1;
      else hi = mid;
    }
    ctx.openFrom = this.staleOpen ? Math.max(0, Math.min(lo, count - 6)) : lo;
    ctx.timeAt = chunk.timeAt;
    return { chunk, ctx };
  }

  /**
   * The generated order `back` places before the latest one at or before t, if it is later than
   * `after` (its time is known without building it). The four fills of a group ask with the same
   * t one after another, so the last search is kept (while the series does not grow).
   */
  private generatedBefore(uid: string, resource: 'spotOrders' | 'futuresOrders', partition: string): (t: number, back: number, after: number) => unknown {
    let series: ChunkedSeries<unknown> | undefined;
    let lastT = Number.NaN;
    let lastSize = -1;
    let lastIndex = 0;
    return (t, back, after) => {
      series ??= this.get(uid, resource, partition) as ChunkedSeries<unknown>;
      if (t !== lastT || series.size !== lastSize) {
        lastIndex = series.firstAtOrAfter(t + 1);
        lastT = t;
        lastSize = series.size;
      }
      const k = lastIndex - 1 - back;
      return k < 0 || series.timeAt(k) <= after ? undefined : series.generatedAt(k);
    };
  }
}

/**
 * The indices of `times` in time order, ties in index order: what sorting the indices by (time,
 * index) gives. The legs arrive as a few runs already in time order (one per source chunk), so
 * the runs are merged pairwise instead of sorted (a 1M-record world places ~500,000 spot bills).
 */
function stableTimeOrder(times: readonly number[]): Int32Array {
  const n = times.length;
  let a = Int32Array.from({ length: n }, (_, i) => i);
  let b = new Int32Array(n);
  const starts: number[] = [0];
  for (let i = 1; i < n; i++) if (times[i]! < times[i - 1]!) starts.push(i);
  let runs = starts;
  while (runs.length > 1) {
    const next: number[] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const lo = runs[r]!;
      const mid = r + 1 < runs.length ? runs[r + 1]! : n;
      const hi = r + 2 < runs.length ? runs[r + 2]! : n;
      next.push(lo);
      let i = lo;
      let j = mid;
      let k = lo;
      // Left run first on a tie: its indices are all smaller.
      while (i < mid && j < hi) b[k++] = times[a[j]!]! < times[a[i]!]! ? a[j++]! : a[i++]!;
      while (i < mid) b[k++] = a[i++]!;
      while (j < hi) b[k++] = a[j++]!;
    }
    [a, b] = [b, a];
    runs = next;
  }
  return a;
}
