import { ChunkedSeries } from './chunkedSeries.js';
import { scaled } from './scaledDecimal.js';

/** Balances are summed as integers of 10^-18 units: exact for every amount the world writes. */
export const UNIT_PLACES = 18;
const UNIT = 10n ** BigInt(UNIT_PLACES);

/**
 * An amount text as an integer of 10^-18 units.
 *
 * @example
 * units('-1.5'); // -1_500_000_000_000_000_000n
 */
export function units(text: string): bigint {
  if (text === '' || text === '0') return 0n;
  const x = scaled(text);
  if (x.s > UNIT_PLACES) throw new RangeError(`amount ${text} has more than ${UNIT_PLACES} decimal places`);
  return x.s >= 0 ? x.m * 10n ** BigInt(UNIT_PLACES - x.s) : x.m * UNIT * 10n ** BigInt(-x.s);
}

/**
 * Units as plain decimal text without trailing zeros (never `-0`).
 *
 * @example
 * unitsText(1_500_000_000_000_000_000n); // '1.5'
 */
export function unitsText(u: bigint): string {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(UNIT_PLACES + 1, '0');
  let text = `${digits.slice(0, -UNIT_PLACES)}.${digits.slice(-UNIT_PLACES)}`.replace(/\.?0+$/, '');
  if (text === '') text = '0';
  return neg && text !== '0' ? `-${text}` : text;
}

/** What one record of a balanced series does to its wallet: the coin and the signed change. */
export interface Movement {
  coin: string;
  delta: bigint;
}

/** How a balanced series reads and completes its records. */
export interface BalanceRules<T> {
  /** The record's coin and signed change (units), read from the record as stored. */
  movementOf(record: T): Movement;
  /**
   * When the opening records sit (the world's first day): their amounts are the opening
   * balances, decided by the first pass, which never builds them (an opening may be built from
   * another series that asks this one for its opening).
   */
  openingAt: number;
  /** The coins that have an opening record in a series that has any. */
  openingCoins: readonly string[];
  /** The opening amount for a coin whose history (without opening) dips to `lowest` (<= 0). */
  openingFor(coin: string, lowest: bigint): bigint;
  /** The record as served: its opening amount (openings only) and its running balance filled in. */
  complete(record: T, balance: bigint, opening: bigint | undefined): T;
}

const BLOCK = 256;
const CACHED_BLOCKS = 16;

/**
 * A series whose records carry a running balance per coin (spot bills, futures bills, margin
 * records): every record's balance is the opening balance of its coin plus the sum of every
 * change up to and including it, so the history sums exactly to every balance served.
 *
 * Records stay lazy: sums are kept per block of 256 records (a checkpoint of every coin's sum
 * before the block), filled in order the first time a balance is asked for, and the balances of
 * a few recently read blocks are cached. The openings (records at the start of the history)
 * are sized by the first pass over the history generated at world creation: enough that no
 * balance of that history goes below zero, plus a cushion for what settles or grows later.
 *
 * @example
 * const s = new BalancedSeries<SpotBill>(rules);
 * s.at(12).balance; // opening + every change of that coin up to bill 12
 */
export class BalancedSeries<T> extends ChunkedSeries<T> {
  /** checkpoints[b]: every coin's raw sum (openings excluded) before block b. */
  private readonly checkpoints: Map<string, bigint>[] = [new Map()];
  private readonly blocks = new Map<number, bigint[]>();
  private openings: Map<string, bigint> | undefined;
  /** Records generated at world creation: the first pass sizes the openings from them alone. */
  private initial = -1;
  /** A record served without its balance (the deliberately bad bill), or -1. */
  spoiled = -1;

  constructor(private readonly rules: BalanceRules<T>) {
    super();
  }

  /** Marks the end of the history generated at world creation (call once, after the first chunks). */
  sealInitial(): void {
    if (this.initial < 0) this.initial = this.size;
  }

  override at(i: number): T {
    const balances = this.blockBalances(Math.floor(i / BLOCK));
    const raw = super.at(i);
    const opening = this.isOpening(i) ? this.openingOf(this.rules.movementOf(raw).coin) : undefined;
    const done = this.rules.complete(raw, balances[i % BLOCK]!, opening);
    if (i === this.spoiled) delete (done as Record<string, unknown>)['balance'];
    return done;
  }

  /** The opening balance of a coin (units; 0 for a coin with no opening record). */
  openingOf(coin: string): bigint {
    return this.sizedOpenings().get(coin) ?? 0n;
  }

  /** Every coin's balance after the last record (units). */
  balances(): Map<string, bigint> {
    const n = this.size;
    const b = Math.floor(n / BLOCK);
    this.checkpointAt(b);
    const sums = new Map(this.checkpoints[b]!);
    for (let i = b * BLOCK; i < n; i++) if (!this.isOpening(i)) add(sums, this.rules.movementOf(super.at(i)));
    const openings = this.sizedOpenings();
    for (const [coin, amount] of openings) sums.set(coin, (sums.get(coin) ?? 0n) + amount);
    return sums;
  }

  /** The balance of one coin after the last record (units). */
  balanceOf(coin: string): bigint {
    return this.balances().get(coin) ?? 0n;
  }

  /** Drops cached sums from record `from` on (a record there changed or was added). */
  override append(record: T, time: number, id: bigint): number {
    const i = super.append(record, time, id);
    this.forgetFrom(i);
    return i;
  }

  override addChunk(chunk: Parameters<ChunkedSeries<T>['addChunk']>[0]): void {
    const from = this.size;
    super.addChunk(chunk);
    this.forgetFrom(from);
  }

  private forgetFrom(i: number): void {
    const b = Math.floor(i / BLOCK);
    this.checkpoints.length = Math.min(this.checkpoints.length, b + 1);
    this.blocks.delete(b);
  }

  private isOpening(i: number): boolean {
    return this.timeAt(i) === this.rules.openingAt;
  }

  private sizedOpenings(): Map<string, bigint> {
    if (this.openings !== undefined) return this.openings;
    const end = this.initial < 0 ? this.size : this.initial;
    const sums = new Map<string, bigint>();
    const lowest = new Map<string, bigint>();
    let opened = false;
    for (let i = 0; i < end; i++) {
      if (i % BLOCK === 0 && this.checkpoints.length === i / BLOCK) this.checkpoints.push(new Map(sums));
      if (this.isOpening(i)) {
        opened = true;
        continue;
      }
      const m = this.rules.movementOf(super.at(i));
      const s = (sums.get(m.coin) ?? 0n) + m.delta;
      sums.set(m.coin, s);
      if (s < (lowest.get(m.coin) ?? 0n)) lowest.set(m.coin, s);
    }
    this.openings = new Map();
    // Only coins with an opening record get one: any other balance is the plain sum.
    if (opened) for (const coin of this.rules.openingCoins) this.openings.set(coin, this.rules.openingFor(coin, lowest.get(coin) ?? 0n));
    return this.openings;
  }

  /** Makes sure checkpoints[0..b] exist. */
  private checkpointAt(b: number): void {
    while (this.checkpoints.length <= b) {
      const k = this.checkpoints.length;
      const sums = new Map(this.checkpoints[k - 1]!);
      for (let i = (k - 1) * BLOCK; i < k * BLOCK; i++) if (!this.isOpening(i)) add(sums, this.rules.movementOf(super.at(i)));
      this.checkpoints.push(sums);
    }
  }

  private blockBalances(b: number): bigint[] {
    const cached = this.blocks.get(b);
    if (cached !== undefined) return cached;
    const openings = this.sizedOpenings();
    this.checkpointAt(b);
    const sums = new Map(this.checkpoints[b]!);
    const out: bigint[] = [];
    const end = Math.min(this.size, (b + 1) * BLOCK);
    for (let i = b * BLOCK; i < end; i++) {
      const m = this.rules.movementOf(super.at(i));
      if (!this.isOpening(i)) add(sums, m);
      out.push((sums.get(m.coin) ?? 0n) + (openings.get(m.coin) ?? 0n));
    }
    if (this.blocks.size >= CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    this.blocks.set(b, out);
    return out;
  }
}

function add(sums: Map<string, bigint>, m: Movement): void {
  sums.set(m.coin, (sums.get(m.coin) ?? 0n) + m.delta);
}
