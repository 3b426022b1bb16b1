import type { GainsDecimal } from './gainsDecimal.js';

/**
 * What the matchers consume: a time-ordered stream of acquisitions, disposals and moves of one
 * person's assets, already valued in the report's fiat currency. Built from the valued ledger by
 * ledgerEvents.ts; tests build them by hand.
 *
 * `day` is the local date (YYYY-MM-DD) in the report's time zone: the same-day and 30-day rules
 * and every holding period count calendar days there.
 */
export interface EventBase {
  asset: string;
  /** Always > 0. */
  quantity: GainsDecimal;
  /** Unix ms. */
  ts: number;
  /** Local date in the report's zone, YYYY-MM-DD. */
  day: string;
  /** Account/wallet the asset sits in, e.g. '1234:spot'. */
  pool: string;
  /** The ledger rows behind it (source:source_id:leg, ';'-joined). */
  ref: string;
}

/** Coins came in: `cost` is what they cost, fees of acquiring them included (> = 0). */
export interface Acquisition extends EventBase {
  type: 'acquire';
  cost: GainsDecimal;
}

/**
 * Coins left: `proceeds` is what they fetched, fees of disposing of them already taken off;
 * `costs` is those fees (the incidental costs of disposal), kept so a return that wants gross
 * proceeds (UK SA108: proceeds before costs, the costs among the allowable costs) can have them.
 */
export interface Disposal extends EventBase {
  type: 'dispose';
  proceeds: GainsDecimal;
  /** Incidental costs of the disposal, already taken off `proceeds` (>= 0); absent = 0. */
  costs?: GainsDecimal;
}

/** An own-account movement from `pool` to `toPool`: never a disposal; lots keep date and cost. */
export interface Move extends EventBase {
  type: 'move';
  toPool: string;
}

export type GainsEvent = Acquisition | Disposal | Move;

/** How a part of a disposal found its cost. */
export type MatchBasis = 'same-day' | '30-day' | 's104' | 'fifo' | 'lifo' | 'hifo' | 'average' | 'specific' | 'no-cost';

/**
 * One matched part of a disposal: the unit of gains.csv. For pooled bases (s104, average)
 * `acquiredDay` is null: the cost is a share of a pool, not of one purchase.
 */
export interface Match {
  asset: string;
  quantity: GainsDecimal;
  proceeds: GainsDecimal;
  cost: GainsDecimal;
  gain: GainsDecimal;
  basis: MatchBasis;
  acquiredDay: string | null;
  disposedDay: string;
  disposedTs: number;
  pool: string;
  disposalRef: string;
  acquisitionRef: string;
  /** This part's share of the disposal's incidental costs (already off `proceeds`); absent = 0. */
  disposalCosts?: GainsDecimal;
  /**
   * Canada: the part of a loss denied as a superficial loss (ITA s. 54, 40(2)(g)(i)) and added to
   * the cost of the substituted property (53(1)(f)); `gain` already includes it (> 0 or absent).
   */
  deniedLoss?: GainsDecimal;
}

/** What is still held at the end: one row per open lot or pool. */
export interface OpenHolding {
  asset: string;
  pool: string;
  quantity: GainsDecimal;
  cost: GainsDecimal;
  acquiredDay: string | null;
  ref: string;
}

/** A lot matcher: feed events in time order, collect matches, then finish. */
export interface Matcher {
  push(event: GainsEvent): Match[];
  /** Flushes anything held back (the UK 30-day window) and returns its matches. */
  finish(): Match[];
  /** The open lots or pools, after finish(). */
  holdings(): OpenHolding[];
}
