// ukShareMatcher.ts as it was on main at f7a9080, before the engine computed in scaled integers (issue 24
// item 5), kept for the paired benchmark and the identity test (see matchersBefore.ts).
import { proRata, sumOf, ZERO } from '../../../src/gains/gainsDecimal.js';
import type { GainsDecimal } from '../../../src/gains/gainsDecimal.js';
import { dayNumber } from '../../../src/normalize/calendarDate.js';
import type { Acquisition, Disposal, GainsEvent, Match, Matcher, OpenHolding } from '../../../src/gains/gainsEvent.js';

// One asset's acquisitions and disposals of one local day, taken together: HMRC CRYPTO22252 and
// CRYPTO22254 treat all disposals of a day as one disposal and all acquisitions as one.
interface DayBook {
  day: string;
  n: number;
  acqQty: GainsDecimal;
  acqCost: GainsDecimal;
  acqRefs: string[];
  dispQty: GainsDecimal;
  proceeds: GainsDecimal;
  /** Incidental costs of the day's disposals, already off `proceeds`. */
  dispCosts: GainsDecimal;
  dispRefs: string[];
  dispTs: number;
}

// The day still being read: its amounts are collected and summed once when the day closes
// (sumOf), rather than added one by one as they come.
interface OpenDay {
  day: string;
  acqQty: GainsDecimal[];
  acqCost: GainsDecimal[];
  acqRefs: string[];
  dispQty: GainsDecimal[];
  proceeds: GainsDecimal[];
  dispCosts: GainsDecimal[];
  dispRefs: string[];
  dispTs: number;
}

const closeBook = (o: OpenDay): DayBook => ({
  day: o.day, n: dayNumber(o.day), acqQty: sumOf(o.acqQty), acqCost: sumOf(o.acqCost), acqRefs: o.acqRefs,
  dispQty: sumOf(o.dispQty), proceeds: sumOf(o.proceeds), dispCosts: sumOf(o.dispCosts), dispRefs: o.dispRefs, dispTs: o.dispTs,
});

interface AssetState {
  open: OpenDay | undefined;
  /** Closed days still within reach of the 30-day rule, oldest first. */
  window: DayBook[];
  poolQty: GainsDecimal;
  poolCost: GainsDecimal;
}

/**
 * The UK share-matching rules for cryptoassets held by an individual (TCGA 1992 ss 104, 105,
 * 106A, as HMRC's Cryptoassets Manual applies them, CRYPTO22200 onwards):
 *  1. same day: a day's disposals of one asset are one disposal, its acquisitions one acquisition,
 *     matched first (CRYPTO22252, CRYPTO22254);
 *  2. 30 days: what is left is matched with acquisitions in the 30 days after the disposal,
 *     earliest acquisition first, earliest disposal first (CRYPTO22253, CRYPTO22255, CRYPTO22256);
 *  3. section 104 pool: the rest comes out of the pool at its average cost (CRYPTO22251).
 * There is one pool per asset for the person, across accounts and wallets, so own-account moves
 * change nothing. Days are local dates in the report's zone. A day is held back until no later
 * acquisition can match it (31 days), so memory is the open days of the last month per asset.
 * Amounts are exact; HMRC's examples round each cost to the pound, which the tests apply.
 *
 * @example
 * const m = ukShareMatcher();
 * const matches = events.flatMap((e) => m.push(e)).concat(m.finish());
 */
export function ukShareMatcher(): Matcher {
  const assets = new Map<string, AssetState>();

  const stateOf = (asset: string): AssetState => {
    let s = assets.get(asset);
    if (!s) {
      s = { open: undefined, window: [], poolQty: ZERO, poolCost: ZERO };
      assets.set(asset, s);
    }
    return s;
  };

  const closeDay = (asset: string, s: AssetState, book: DayBook, out: Match[]) => {
    // 1. Same day.
    const same = book.acqQty.lt(book.dispQty) ? book.acqQty : book.dispQty;
    if (same.gt(0)) {
      const cost = takeCost(book, same);
      const [proceeds, costs] = takeProceeds(book, same);
      out.push(match(asset, book, same, proceeds, costs, cost, 'same-day', book.day, book.acqRefs.join(';')));
    }
    // 2. This day's acquisitions against earlier disposals within 30 days, earliest first.
    if (book.acqQty.gt(0)) {
      for (const earlier of s.window) {
        if (book.acqQty.isZero()) break;
        if (earlier.dispQty.isZero() || book.n - earlier.n > 30) continue;
        const q = book.acqQty.lt(earlier.dispQty) ? book.acqQty : earlier.dispQty;
        const cost = takeCost(book, q);
        const [proceeds, costs] = takeProceeds(earlier, q);
        out.push(match(asset, earlier, q, proceeds, costs, cost, '30-day', book.day, book.acqRefs.join(';')));
      }
    }
    // 3. Days no later acquisition can reach go to the pool, in date order.
    while (s.window.length > 0 && book.n - s.window[0]!.n > 30) finalise(asset, s, s.window.shift()!, out);
    if (book.acqQty.gt(0) || book.dispQty.gt(0)) s.window.push(book);
  };

  const finalise = (asset: string, s: AssetState, book: DayBook, out: Match[]) => {
    if (book.acqQty.gt(0)) {
      s.poolQty = s.poolQty.plus(book.acqQty);
      s.poolCost = s.poolCost.plus(book.acqCost);
    }
    if (book.dispQty.gt(0)) {
      const fromPool = book.dispQty.lt(s.poolQty) ? book.dispQty : s.poolQty;
      if (fromPool.gt(0)) {
        const cost = fromPool.eq(s.poolQty) ? s.poolCost : proRata(s.poolCost, fromPool, s.poolQty);
        s.poolQty = s.poolQty.minus(fromPool);
        s.poolCost = s.poolCost.minus(cost);
        const [proceeds, costs] = takeProceeds(book, fromPool);
        out.push(match(asset, book, fromPool, proceeds, costs, cost, 's104', null, 's104'));
      }
      if (book.dispQty.gt(0)) {
        const rest = book.dispQty;
        const [proceeds, costs] = takeProceeds(book, rest);
        out.push(match(asset, book, rest, proceeds, costs, ZERO, 'no-cost', null, ''));
      }
    }
  };

  return {
    push(event: GainsEvent): Match[] {
      if (event.type === 'move') return [];
      const s = stateOf(event.asset);
      let b = s.open;
      if (b && b.day !== event.day) {
        const out: Match[] = [];
        closeDay(event.asset, s, closeBook(b), out);
        b = s.open = { day: event.day, acqQty: [], acqCost: [], acqRefs: [], dispQty: [], proceeds: [], dispCosts: [], dispRefs: [], dispTs: event.ts };
        add(b, event);
        return out;
      }
      if (!b) b = s.open = { day: event.day, acqQty: [], acqCost: [], acqRefs: [], dispQty: [], proceeds: [], dispCosts: [], dispRefs: [], dispTs: event.ts };
      add(b, event);
      return NONE;
    },
    finish(): Match[] {
      const out: Match[] = [];
      for (const [asset, s] of assets) {
        if (s.open) { closeDay(asset, s, closeBook(s.open), out); s.open = undefined; }
        while (s.window.length > 0) finalise(asset, s, s.window.shift()!, out);
      }
      return out;
    },
    holdings(): OpenHolding[] {
      const out: OpenHolding[] = [];
      for (const [asset, s] of assets) {
        if (s.poolQty.gt(0) || s.poolCost.gt(0)) out.push({ asset, pool: '*', quantity: s.poolQty, cost: s.poolCost, acquiredDay: null, ref: 's104' });
      }
      return out;
    },
  };
}

// Most events close no day: they share one empty, never-written result.
const NONE: Match[] = [];
Object.freeze(NONE);

function add(b: OpenDay, event: Acquisition | Disposal): void {
  if (event.type === 'acquire') {
    b.acqQty.push(event.quantity);
    b.acqCost.push(event.cost);
    b.acqRefs.push(event.ref);
  } else {
    b.dispQty.push(event.quantity);
    b.proceeds.push(event.proceeds);
    if (event.costs) b.dispCosts.push(event.costs);
    b.dispRefs.push(event.ref);
    b.dispTs = event.ts;
  }
}

// Takes `q` out of the day's acquisitions: their cost, pro rata to what is left and rounded once
// (proRata); the last share takes the remainder, so the parts add up exactly.
function takeCost(book: DayBook, q: GainsDecimal): GainsDecimal {
  const share = q.eq(book.acqQty) ? book.acqCost : proRata(book.acqCost, q, book.acqQty);
  book.acqQty = book.acqQty.minus(q);
  book.acqCost = book.acqCost.minus(share);
  return share;
}

// Takes `q` out of the day's disposals: their proceeds and their incidental costs, the same way.
function takeProceeds(book: DayBook, q: GainsDecimal): [GainsDecimal, GainsDecimal] {
  const all = q.eq(book.dispQty);
  const share = all ? book.proceeds : proRata(book.proceeds, q, book.dispQty);
  const costs = all ? book.dispCosts : proRata(book.dispCosts, q, book.dispQty);
  book.dispQty = book.dispQty.minus(q);
  book.proceeds = book.proceeds.minus(share);
  book.dispCosts = book.dispCosts.minus(costs);
  return [share, costs];
}

function match(asset: string, disposal: DayBook, quantity: GainsDecimal, proceeds: GainsDecimal, disposalCosts: GainsDecimal, cost: GainsDecimal,
  basis: Match['basis'], acquiredDay: string | null, acquisitionRef: string): Match {
  return {
    asset, quantity, proceeds, cost, gain: proceeds.minus(cost), basis, acquiredDay, disposedDay: disposal.day,
    disposedTs: disposal.dispTs, pool: '*', disposalRef: disposal.dispRefs.join(';'), acquisitionRef,
    ...(disposalCosts.isZero() ? {} : { disposalCosts }),
  };
}
