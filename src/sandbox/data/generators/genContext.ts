import type { SandboxAccount } from '../../world.js';
import { recordRng, type Rng } from '../rng.js';

/** Everything a record generator needs besides the record's own index, time and id. */
export interface GenContext {
  seed: number;
  account: SandboxAccount;
  /** The main account of this account's family (itself for a main account). */
  mainUid: string;
  /** Accounts this one can transfer to or receive from. */
  peers: readonly string[];
  partition: string;
  /** Rotates the enum cycles so that accounts and partitions together cover every value. */
  coverOffset: number;
  /** rng key of the chunk. */
  key: number;
  /** Records at or past this index of the chunk may still be open (live, pending, Processing). */
  openFrom: number;
  /** The chunk's last allowed time: no uTime goes past it. */
  chunkEnd: number;
  /** Time from which history uses the newer formats (newFees). */
  modernFrom: number;
  /**
   * Fills only: the generated order `back` places before the latest one at or before t, or
   * undefined when there is none or it is not later than `after` (checked before building it).
   */
  orderBefore?: (t: number, back: number, after: number) => unknown;
  /** Time of record j of this chunk (set once the chunk exists). */
  timeAt?: (j: number) => number;
  /** Time of the series' last record before this chunk. */
  prevTime: number;
}

/** A record builder: record j of a chunk at time t with id. */
export type RecordGenerator<T> = (ctx: GenContext, j: number, t: number, id: bigint) => T;

/**
 * The rng of record j of the context's chunk.
 *
 * @example
 * rngFor(ctx, 12).pick(['buy', 'sell']);
 */
export function rngFor(ctx: GenContext, j: number): Rng {
  return recordRng(ctx.key, j);
}

/**
 * The first records of every chunk walk through `items` in turn (shifted per account and
 * partition) so even a tiny world holds every enum value; later ones pick at random.
 *
 * @example
 * cover(['live', 'filled'] as const, j, ctx, rng);
 */
export function cover<T>(items: readonly T[], j: number, ctx: GenContext, rng: Rng, salt = 0): T {
  if (j < items.length * 3) return items[(j + ctx.coverOffset + salt) % items.length] as T;
  return rng.pick(items);
}

/**
 * A 32-hex-digit client order id.
 *
 * @example
 * hexId(rng); // '9f1c...' (32 hex digits)
 */
export function hexId(rng: Rng): string {
  return hex8(rng.u32()) + hex8(rng.u32()) + hex8(rng.u32()) + hex8(rng.u32());
}

/**
 * A uint32 as 8 hex digits.
 *
 * @example
 * hex8(255); // '000000ff'
 */
export function hex8(n: number): string {
  // Four table lookups: Number#toString(16) was the most expensive call of a whole record.
  return hexByte[n >>> 24]! + hexByte[(n >>> 16) & 255]! + hexByte[(n >>> 8) & 255]! + hexByte[n & 255]!;
}

const hexByte: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A later time, never past the chunk end.
 *
 * @example
 * laterTime(ctx, t, rng, 600_000); // t .. t + 10 min, capped at the chunk end
 */
export function laterTime(ctx: GenContext, t: number, rng: Rng, maxDelayMs: number): number {
  return Math.min(ctx.chunkEnd, t + rng.int(maxDelayMs));
}

/**
 * The order a fill belongs to. The four fills of a timestamp group take the four latest
 * generated orders at or before the group's time, if those came after the previous group's
 * fills and traded; so each order gets at most one generated fill.
 *
 * @example
 * const order = parentOrder<SpotOrder>(ctx, j, (o) => o.baseVolume !== '0');
 */
export function parentOrder<O extends { cTime: string }>(ctx: GenContext, j: number, hasFills: (o: O) => boolean): O | undefined {
  if (ctx.orderBefore === undefined || ctx.timeAt === undefined) return undefined;
  const first = j - (j & 3);
  const prev = first > 0 ? ctx.timeAt(first - 1) : ctx.prevTime;
  const order = ctx.orderBefore(ctx.timeAt(first), 3 - (j & 3), prev) as O | undefined;
  if (order === undefined || !hasFills(order)) return undefined;
  return Number(order.cTime) > prev ? order : undefined;
}
