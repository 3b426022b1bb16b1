import { ZERO } from './gainsDecimal.js';
import { add, cmp, fromDecimal, isZero, negate, proRata, S_ZERO, sub, toDecimal } from './scaledDecimal.js';
import type { Scaled } from './scaledDecimal.js';
import { dayNumber } from '../normalize/calendarDate.js';
import { lotStore } from './lotStore.js';
import type { LotStore } from './lotStore.js';
import type { GainsEvent, Match, Matcher, OpenHolding } from './gainsEvent.js';

/** Days either side of a disposal in which an acquisition of identical property counts (ITA s. 54). */
const WINDOW = 30;

interface Pending {
  asset: string;
  /** Day number of the disposal. */
  n: number;
  /** S: the quantity disposed of. */
  quantity: Scaled;
  /** L: the loss (> 0). */
  loss: Scaled;
  /**
   * P: identical property acquired from 30 days before to 30 days after the disposal. While its
   * asset is `exact`, the part acquired after the disposal is kept as `cumAt` (the asset's `cum`
   * then) and added once, when the period ends (see AssetState.exact).
   */
  acquired: Scaled;
  cumAt: Scaled | undefined;
  matches: Match[];
  /** Its place in the queue of disposals. */
  entry: { matches: Match[]; pending?: Pending };
  resolved: boolean;
}

interface AssetState {
  store: LotStore;
  /** Acquisitions of the last 30 days (day number, quantity), oldest first. */
  recent: { n: number; quantity: Scaled }[];
  /** Every acquisition's quantity, added up in order. */
  cum: Scaled;
  /** The quantities that left `recent`, added up in order: `cum - out` is what `recent` holds. */
  out: Scaled;
  /** The most decimal places of any quantity in `cum`. */
  places: number;
  /**
   * While every sum of this asset's quantities is far inside the 60 significant digits at which
   * GainsDecimal rounds (`cum` of at most 58 digits at the finest scale of its quantities), sums are exact, so a pending loss's P
   * is its first part plus `cum` now less `cum` at its disposal, one subtraction instead of an
   * addition per acquisition per pending loss (which made the matcher quadratic: 20,000
   * disposals took 3.3 s). Past that, every sum is made as before, one acquisition at a time, so
   * that its rounding is the same.
   */
  exact: boolean;
}

/**
 * Canada: identical properties at their average cost (CRA, "Identical properties"), with the
 * superficial-loss rule. Income Tax Act s. 54, "superficial loss": a loss from the disposition of
 * a property where "(a) during the period that begins 30 days before and ends 30 days after the
 * disposition, the taxpayer or a person affiliated with the taxpayer acquires a property (in this
 * definition referred to as the 'substituted property') that is, or is identical to, the
 * particular property, and (b) at the end of that period, the taxpayer or a person affiliated
 * with the taxpayer owns or had a right to acquire the substituted property". Such a loss is nil
 * (s. 40(2)(g)(i)) and is added to the adjusted cost base of the substituted property
 * (s. 53(1)(f)). When fewer units come back than were sold, the CRA denies the loss pro rata:
 * SL = (least of S, P and B) / S x L, S the units disposed of, P those acquired in the 61 days,
 * B those held at the end of the period (CRA 2022-0940941C6 and IT-456R para 12; CRA
 * 2004-0073011E5: 50 sold, 10 bought in the 30 days before and 10 after, 20 held at the end:
 * "The loss on the disposition of 20 shares will be considered a 'superficial loss'").
 *
 * A loss is therefore decided 30 days after its disposal: its match is held back until then
 * (memory: the disposals at a loss of the last 30 days). The denied part is added to the pool's
 * cost when the period ends; a disposal of the same asset inside those 30 days takes the average
 * cost as it stood. Only this person's own accounts are seen (an affiliated person's purchases are
 * not). Days are local dates in the report's zone. Amounts are computed as scaled integers
 * (scaledDecimal.ts: GainsDecimal's results, to the digit) and handed out as GainsDecimal.
 *
 * @example
 * const m = canadaMatcher(); const matches = events.flatMap((e) => m.push(e)).concat(m.finish());
 */
export function canadaMatcher(): Matcher {
  const assets = new Map<string, AssetState>();
  // Every disposal's matches, in order; a disposal at a loss waits for its period to end.
  const queue: { matches: Match[]; pending?: Pending }[] = [];
  let queueHead = 0;
  // Pending losses in the order of their disposals (and so of their days): those whose period is
  // over are at the front, from `pendingHead` on (unless the days ran backwards: `inOrder`).
  let pending: Pending[] = [];
  let pendingHead = 0;
  let lastDay = -Infinity;
  let inOrder = true;

  const stateOf = (asset: string): AssetState => {
    let s = assets.get(asset);
    if (!s) {
      s = { store: lotStore('average'), recent: [], cum: S_ZERO, out: S_ZERO, places: 0, exact: true };
      assets.set(asset, s);
    }
    return s;
  };

  // The period of `p` is over: B is what is held now (the end of its 30th day, or the end of the read).
  const resolve = (p: Pending) => {
    const s = stateOf(p.asset);
    if (p.cumAt !== undefined) p.acquired = add(p.acquired, sub(s.cum, p.cumAt));
    const held = s.store.quantity();
    const least = [p.quantity, p.acquired, held].reduce((a, b) => (cmp(b, a) < 0 ? b : a));
    if (least.m > 0) {
      const denied = cmp(least, p.quantity) === 0 ? p.loss : proRata(p.loss, least, p.quantity);
      const first = p.matches[0]!;
      p.matches[0] = { ...first, gain: toDecimal(add(fromDecimal(first.gain), denied)), deniedLoss: toDecimal(denied) };
      // 53(1)(f): the denied loss is added to the cost of the substituted property, in the pool.
      s.store.add({ quantity: S_ZERO, cost: denied, ts: first.disposedTs, day: first.disposedDay, ref: 'superficial-loss' });
    }
    p.resolved = true;
    delete p.entry.pending;
  };

  // The pending losses not yet resolved, oldest first.
  function* open(): Generator<Pending> {
    for (let i = pendingHead; i < pending.length; i++) if (!pending[i]!.resolved) yield pending[i]!;
  }

  const dropResolved = () => {
    while (pendingHead < pending.length && pending[pendingHead]!.resolved) pendingHead++;
    if (pendingHead > 1024 && pendingHead * 2 > pending.length) {
      pending = pending.slice(pendingHead);
      pendingHead = 0;
    }
  };

  const drain = (): Match[] => {
    const out: Match[] = [];
    while (queueHead < queue.length && !queue[queueHead]!.pending) {
      for (const m of queue[queueHead]!.matches) out.push(m);
      queue[queueHead++] = undefined as never;
    }
    if (queueHead > 1024 && queueHead * 2 > queue.length) {
      queue.splice(0, queueHead);
      queueHead = 0;
    }
    return out;
  };

  // This asset leaves the exact sums: each pending loss's P is made whole now (still exact), and
  // from here on grows one acquisition at a time.
  const leaveExact = (s: AssetState, asset: string) => {
    for (const p of open()) {
      if (p.asset !== asset || p.cumAt === undefined) continue;
      p.acquired = add(p.acquired, sub(s.cum, p.cumAt));
      p.cumAt = undefined;
    }
    s.exact = false;
  };

  return {
    push(event: GainsEvent): Match[] {
      if (event.type === 'move') return [];
      const n = dayNumber(event.day);
      if (n < lastDay) inOrder = false;
      lastDay = n;
      if (inOrder) {
        while (pendingHead < pending.length && (pending[pendingHead]!.resolved || n - pending[pendingHead]!.n > WINDOW)) {
          const p = pending[pendingHead]!;
          if (!p.resolved) resolve(p);
          pendingHead++;
        }
      } else {
        for (const p of [...open()]) if (n - p.n > WINDOW) resolve(p);
      }
      dropResolved();
      const s = stateOf(event.asset);
      while (s.recent.length > 0 && n - s.recent[0]!.n > WINDOW) {
        const gone = s.recent.shift()!;
        if (s.exact) s.out = add(s.out, gone.quantity);
      }
      const quantity = fromDecimal(event.quantity);
      if (event.type === 'acquire') {
        s.store.add({ quantity, cost: fromDecimal(event.cost), ts: event.ts, day: event.day, ref: event.ref });
        s.recent.push({ n, quantity });
        if (s.exact) {
          // Exact while the sum, at the finest scale of any quantity added, has at most 57 digits
          // (bounded before adding: the result of a rounded sum could look small). Every sum the
          // old way makes (of some of these quantities, none negative) is then exact too.
          const places = Math.max(s.places, quantity.k);
          if (quantity.m >= 0 && Math.max(integerDigits(s.cum), integerDigits(quantity)) + 1 + places <= EXACT_DIGITS) {
            s.cum = add(s.cum, quantity);
            s.places = places;
          } else {
            leaveExact(s, event.asset);
          }
        }
        if (!s.exact) for (const p of open()) if (p.asset === event.asset) p.acquired = add(p.acquired, quantity);
        return drain();
      }
      const parts = s.store.take(quantity);
      const matches: Match[] = [];
      const gains: Scaled[] = [];
      const costs = event.costs ? fromDecimal(event.costs) : S_ZERO;
      const taken = parts.reduce((a, p) => add(a, p.quantity), S_ZERO);
      const base = { asset: event.asset, disposedDay: event.day, disposedTs: event.ts, pool: '*', disposalRef: event.ref };
      const eventProceeds = fromDecimal(event.proceeds);
      let proceedsLeft = eventProceeds;
      let costsLeft = costs;
      for (const part of parts) {
        const last = cmp(taken, quantity) === 0 && part === parts[parts.length - 1];
        const proceeds = last ? proceedsLeft : proRata(eventProceeds, part.quantity, quantity);
        const partCosts = last ? costsLeft : proRata(costs, part.quantity, quantity);
        proceedsLeft = sub(proceedsLeft, proceeds);
        costsLeft = sub(costsLeft, partCosts);
        const gain = sub(proceeds, part.cost);
        gains.push(gain);
        matches.push({ ...base, quantity: toDecimal(part.quantity), proceeds: toDecimal(proceeds), cost: toDecimal(part.cost), gain: toDecimal(gain), basis: 'average', acquiredDay: null, acquisitionRef: part.ref, ...(isZero(partCosts) ? {} : { disposalCosts: toDecimal(partCosts) }) });
      }
      if (cmp(taken, quantity) < 0) {
        gains.push(proceedsLeft);
        const proceeds = toDecimal(proceedsLeft);
        matches.push({ ...base, quantity: toDecimal(sub(quantity, taken)), proceeds, cost: ZERO, gain: proceeds, basis: 'no-cost', acquiredDay: null, acquisitionRef: '', ...(isZero(costsLeft) ? {} : { disposalCosts: toDecimal(costsLeft) }) });
      }
      const gain = gains.reduce((a, g) => add(a, g), S_ZERO);
      if (gain.m < 0 && matches.length > 0) {
        // P so far: what came in from 30 days before (this day's earlier purchases included).
        const acquired = s.exact ? sub(s.cum, s.out) : s.recent.reduce((a, r) => add(a, r.quantity), S_ZERO);
        const entry: { matches: Match[]; pending?: Pending } = { matches };
        const p: Pending = { asset: event.asset, n, quantity, loss: negate(gain), acquired, cumAt: s.exact ? s.cum : undefined, matches, entry, resolved: false };
        entry.pending = p;
        pending.push(p);
        queue.push(entry);
      } else {
        queue.push({ matches });
      }
      return drain();
    },
    finish(): Match[] {
      // Periods running past the end of the read are decided on what is known: the holding then.
      for (const p of [...open()]) resolve(p);
      dropResolved();
      return drain();
    },
    holdings(): OpenHolding[] {
      const out: OpenHolding[] = [];
      for (const [asset, s] of assets) {
        for (const l of s.store.lots()) out.push({ asset, pool: '*', quantity: toDecimal(l.quantity), cost: toDecimal(l.cost), acquiredDay: null, ref: 'pool' });
      }
      return out;
    },
  };
}

// Digits a sum may have at its finest scale and still be exact: GainsDecimal rounds beyond 60
// significant digits; two spare.
const EXACT_DIGITS = 58;

/** The digits of a value's integer part (0 below 1). */
function integerDigits(v: Scaled): number {
  const m = v.m;
  if (m === 0 || m === 0n) return 0;
  const digits = typeof m === 'number' ? String(Math.abs(m)).length : String(m < 0n ? -m : m).length;
  return Math.max(0, digits - v.k);
}
