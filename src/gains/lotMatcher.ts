import { add, cmp, fromDecimal, isZero, proRata, S_ZERO, sub, toDecimal } from './scaledDecimal.js';
import type { Scaled } from './scaledDecimal.js';
import { lotStore, OpenLot } from './lotStore.js';
import type { LotPart, LotStore } from './lotStore.js';
import type { Disposal, GainsEvent, Match, Matcher, OpenHolding } from './gainsEvent.js';
import type { LotSelections, SelectedDisposal } from './lotSelections.js';
import { TradeledgerError } from '../errors.js';
import { ZERO } from './gainsDecimal.js';

/** Options of {@link lotMatcher}. */
export interface LotMatcherOptions {
  method: 'fifo' | 'lifo' | 'hifo' | 'average';
  /**
   * 'universal': one pool per asset across every account and wallet; 'wallet': one per asset and
   * account/wallet, and own-account moves carry lots (with their dates and costs) across.
   */
  pools: 'universal' | 'wallet';
  /**
   * Universal before this local day, per wallet from it on (the US from 2025-01-01, Rev. Proc.
   * 2024-28). At the switch each open universal lot goes to the wallet that holds those very units
   * (followed through own-account moves; see {@link lotMatcher}), so renaming a wallet changes
   * nothing: the written allocation rule of docs/gains.md.
   */
  walletFromDay?: string;
  /**
   * Specific identification (US, Treas. Reg. § 1.1012-1(j)(3); see lotSelections.ts): the lots the
   * user named for a disposal are taken first, from the disposal's own pool; what no selection
   * names is matched by `method`. Only with 'fifo' or 'lifo'.
   */
  selections?: LotSelections;
}

const UNIVERSAL = '*';
/** The pool a one-sided own-account transfer passes through (ledgerEvents.ts). */
export const TRANSIT = 'transit';
/** How long a side that reached TRANSIT first waits for the other (a transfer's sides are booked together). */
const CLAIM_MS = 86_400_000;

/** A move out of TRANSIT that found fewer units than it took: the rest is owed to `toPool`. */
interface Claim { toPool: string; quantity: Scaled; ts: number }

// Gives units that just reached TRANSIT to the claims waiting for them, oldest first; claims older
// than CLAIM_MS are dropped (their other side never came: data with gaps).
function settleClaims(claims: Claim[], ts: number, give: (claim: Claim, want: Scaled) => Scaled): void {
  while (claims.length > 0 && ts - claims[0]!.ts > CLAIM_MS) claims.shift();
  while (claims.length > 0) {
    const claim = claims[0]!;
    const got = give(claim, claim.quantity);
    claim.quantity = sub(claim.quantity, got);
    if (claim.quantity.m > 0) return;
    claims.shift();
  }
}

/**
 * Entries by asset and pool: a map of maps for the lookup of every event (no key string to build
 * and hash), beside the flat list in first-use order, which holdings() and the switch to wallets
 * walk.
 */
class ByAssetAndPool<T> {
  private readonly index = new Map<string, Map<string, T>>();
  readonly all: T[] = [];
  get(asset: string, pool: string): T | undefined { return this.index.get(asset)?.get(pool); }
  set(asset: string, pool: string, value: T): void {
    let pools = this.index.get(asset);
    if (!pools) { pools = new Map(); this.index.set(asset, pools); }
    pools.set(pool, value);
    this.all.push(value);
  }
  clear(): void { this.index.clear(); this.all.length = 0; }
}

const NO_PARTS: readonly LotPart[] = [];

const sumQuantities = (xs: readonly { quantity: Scaled }[]): Scaled => xs.reduce((s, x) => add(s, x.quantity), S_ZERO);

/**
 * FIFO, LIFO, HIFO and average-cost matching of a time-ordered event stream, holding only the open
 * lots. Amounts are computed as scaled integers (scaledDecimal.ts: GainsDecimal's results, to
 * the digit) and handed out as GainsDecimal. A disposal larger than what is held is matched as far as it goes; the rest is a 'no-cost'
 * match (cost 0), which the report flags.
 *
 * @example
 * const m = lotMatcher({ method: 'fifo', pools: 'universal' });
 * const matches = events.flatMap((e) => m.push(e)).concat(m.finish());
 */
export function lotMatcher(options: LotMatcherOptions): Matcher {
  const stores = new ByAssetAndPool<{ asset: string; pool: string; store: LotStore }>();
  // While pools are universal and a switch to wallets is ahead (the US before 2025): which units,
  // of which acquisition, sit in which wallet. Acquisitions land in their wallet, own-account
  // moves carry units (first in, first out within the wallet) to another, disposals take units
  // out of their wallet first in, first out. The universal FIFO may have matched a sale from one
  // wallet with another wallet's older lot; this record still knows where the coins are.
  const physical = new ByAssetAndPool<{ asset: string; pool: string; units: PhysicalUnit[] }>();
  let perWallet = options.pools === 'wallet' && options.walletFromDay === undefined;
  const switchDay = options.pools === 'wallet' ? options.walletFromDay : undefined;

  const storeOf = (asset: string, pool: string): LotStore => {
    const p = perWallet ? pool : UNIVERSAL;
    let entry = stores.get(asset, p);
    if (!entry) {
      entry = { asset, pool: p, store: lotStore(options.method) };
      stores.set(asset, p, entry);
    }
    return entry.store;
  };

  const unitsOf = (asset: string, pool: string): PhysicalUnit[] => {
    let entry = physical.get(asset, pool);
    if (!entry) {
      entry = { asset, pool, units: [] };
      physical.set(asset, pool, entry);
    }
    return entry.units;
  };

  /**
   * The allocation at the switch, per asset:
   *  1. every unit a wallet holds takes its own lot's remaining basis, if the universal pool still
   *     has that lot open (units in time order, ties by wallet name);
   *  2. the universal lots still open (their own units were sold from the wallet that held them,
   *     while the universal FIFO matched an older lot) go, oldest first, to the units no lot
   *     covered yet, in the order those units were acquired (ties by wallet name);
   *  3. lots nobody's units account for (data with gaps) stay visible in '(unallocated)'.
   * Wallet names only break exact ties of time, so renaming a wallet does not move basis.
   */
  const switchToWallets = () => {
    const universal = [...stores.all];
    stores.clear();
    perWallet = true;
    for (const { asset, store } of universal) {
      const open = store.take(store.quantity());
      const byRef = new Map<string, LotPart[]>();
      for (const part of open) byRef.set(part.ref, [...(byRef.get(part.ref) ?? []), part]);
      const held = physical.all.filter((w) => w.asset === asset)
        .flatMap((w) => w.units.map((u) => ({ pool: w.pool, ...u })))
        .sort((a, b) => a.ts - b.ts || (a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0));
      const uncovered: { pool: string; quantity: Scaled }[] = [];
      for (const unit of held) {
        let want = unit.quantity;
        const parts = byRef.get(unit.ref) ?? [];
        while (want.m > 0 && parts.length > 0) {
          const part = splitPart(parts, want);
          storeOf(asset, unit.pool).add(asLot(part));
          want = sub(want, part.quantity);
        }
        if (want.m > 0) uncovered.push({ pool: unit.pool, quantity: want });
      }
      // What no wallet's own units took, oldest first.
      const rest = [...byRef.values()].flat().sort((a, b) => a.ts - b.ts);
      for (const u of uncovered) {
        let want = u.quantity;
        while (want.m > 0 && rest.length > 0) {
          const part = splitPart(rest, want);
          storeOf(asset, u.pool).add(asLot(part));
          want = sub(want, part.quantity);
        }
      }
      for (const part of rest) storeOf(asset, '(unallocated)').add(asLot(part));
    }
    physical.clear();
    unitClaims.clear();
  };

  const takeForMove = (store: LotStore, quantity: Scaled): LotPart[] => store.take(quantity);

  // A one-sided transfer (a futures or margin wallet records its own side, the spot transfer the
  // other) goes through the TRANSIT pool. Its two sides may come in either order: rows of one
  // millisecond are ordered by source, and the futures bill of a transfer can sort before the spot
  // transfer that feeds it. A side that takes more from TRANSIT than it holds leaves a claim; the
  // next units to reach TRANSIT (within CLAIM_MS) go to the oldest claim first. Without it the
  // receiving wallet got no lots and every later disposal there had no cost (the demo's US run:
  // 629 such matches in futures and margin wallets).
  const storeClaims = new Map<string, Claim[]>();
  const unitClaims = new Map<string, Claim[]>();
  const claimsOf = (claims: Map<string, Claim[]>, asset: string): Claim[] => {
    let list = claims.get(asset);
    if (!list) { list = []; claims.set(asset, list); }
    return list;
  };
  const moveLots = (asset: string, from: string, to: string, quantity: Scaled, ts: number) => {
    const parts = takeForMove(storeOf(asset, from), quantity);
    const into = storeOf(asset, to);
    for (const part of parts) into.add(asLot(part));
    if (from === TRANSIT) {
      const got = sumQuantities(parts);
      if (cmp(got, quantity) < 0) claimsOf(storeClaims, asset).push({ toPool: to, quantity: sub(quantity, got), ts });
    }
    if (to === TRANSIT) settleClaims(claimsOf(storeClaims, asset), ts, (claim, want) => {
      const given = takeForMove(storeOf(asset, TRANSIT), want);
      for (const part of given) storeOf(asset, claim.toPool).add(asLot(part));
      return sumQuantities(given);
    });
  };
  const moveUnits = (asset: string, from: string, to: string, quantity: Scaled, ts: number) => {
    const moved = takeUnits(unitsOf(asset, from), quantity);
    for (const u of moved) insertUnit(unitsOf(asset, to), u);
    if (from === TRANSIT) {
      const got = sumQuantities(moved);
      if (cmp(got, quantity) < 0) claimsOf(unitClaims, asset).push({ toPool: to, quantity: sub(quantity, got), ts });
    }
    if (to === TRANSIT) settleClaims(claimsOf(unitClaims, asset), ts, (claim, want) => {
      const given = takeUnits(unitsOf(asset, TRANSIT), want);
      for (const u of given) insertUnit(unitsOf(asset, claim.toPool), u);
      return sumQuantities(given);
    });
  };

  return {
    push(event: GainsEvent): Match[] {
      if (switchDay !== undefined && !perWallet && event.day >= switchDay) switchToWallets();
      // Each amount is turned into a scaled integer once; it keeps the GainsDecimal it came from.
      const quantity = fromDecimal(event.quantity);
      // Where the units are matters only for the switch to wallets (the US in 2025).
      if (switchDay !== undefined && !perWallet) {
        if (event.type === 'acquire') insertUnit(unitsOf(event.asset, event.pool), new Unit(event.ref, event.ts, quantity));
        else if (event.type === 'move') moveUnits(event.asset, event.pool, event.toPool, quantity, event.ts);
        else dropUnits(unitsOf(event.asset, event.pool), quantity);
      }
      if (event.type === 'acquire') {
        storeOf(event.asset, event.pool).add(new OpenLot(quantity, fromDecimal(event.cost), event.ts, event.day, event.ref));
        return [];
      }
      if (event.type === 'move') {
        if (!perWallet) return [];
        moveLots(event.asset, event.pool, event.toPool, quantity, event.ts);
        return [];
      }
      const store = storeOf(event.asset, event.pool);
      const pool = perWallet ? event.pool : UNIVERSAL;
      const basis = options.method;
      const chosen = options.selections?.forDisposal(event);
      const specific = chosen ? takeSelected(store, event, chosen, pool, options.selections!.file) : NO_PARTS;
      // Without a selection (nearly always) the disposal goes to the store as it is.
      const named = chosen ? sumQuantities(specific) : S_ZERO;
      const parts = !chosen ? store.take(quantity) : cmp(named, quantity) === 0 ? [] : store.take(sub(quantity, named));
      const only = parts.length === 1 && specific.length === 0 ? parts[0]! : undefined;
      const eventProceeds = fromDecimal(event.proceeds);
      if (only && cmp(only.quantity, quantity) === 0) {
        // The common case: one lot covers the disposal.
        const match: Match = {
          asset: event.asset, quantity: event.quantity, proceeds: event.proceeds, cost: toDecimal(only.cost), gain: toDecimal(sub(eventProceeds, only.cost)), basis,
          acquiredDay: only.day, disposedDay: event.day, disposedTs: event.ts, pool, disposalRef: event.ref, acquisitionRef: only.ref,
        };
        if (event.costs) match.disposalCosts = event.costs;
        return [match];
      }
      const all = specific.length > 0 ? specific.concat(parts) : parts;
      // One match per part, and one more when the parts fall short; written by index into an
      // array of that length (push would grow it with room for 16 more).
      const matches: Match[] = new Array<Match>(all.length);
      const allCosts = event.costs ? fromDecimal(event.costs) : S_ZERO;
      let proceedsLeft = eventProceeds;
      let costsLeft = allCosts;
      let qtyLeft = quantity;
      for (let i = 0; i < all.length; i++) {
        const part = all[i]!;
        // Shares rounded once (proRata); the last part takes what is left, so the parts add up exactly.
        const last = cmp(part.quantity, qtyLeft) === 0;
        const proceeds = last ? proceedsLeft : proRata(eventProceeds, part.quantity, quantity);
        const costs = last ? costsLeft : proRata(allCosts, part.quantity, quantity);
        if (last) {
          // What is left minus itself: nothing, as decimal.js's x - x.
          proceedsLeft = costsLeft = qtyLeft = S_ZERO;
        } else {
          proceedsLeft = sub(proceedsLeft, proceeds);
          costsLeft = sub(costsLeft, costs);
          qtyLeft = sub(qtyLeft, part.quantity);
        }
        const match: Match = {
          asset: event.asset, quantity: toDecimal(part.quantity), proceeds: toDecimal(proceeds), cost: toDecimal(part.cost), gain: toDecimal(sub(proceeds, part.cost)),
          basis: i < specific.length ? 'specific' : basis, acquiredDay: part.day, disposedDay: event.day, disposedTs: event.ts, pool,
          disposalRef: event.ref, acquisitionRef: part.ref,
        };
        if (!isZero(costs)) match.disposalCosts = toDecimal(costs);
        matches[i] = match;
      }
      if (qtyLeft.m > 0) {
        const proceeds = toDecimal(proceedsLeft);
        const match: Match = {
          asset: event.asset, quantity: toDecimal(qtyLeft), proceeds, cost: ZERO, gain: proceeds, basis: 'no-cost',
          acquiredDay: null, disposedDay: event.day, disposedTs: event.ts, pool,
          disposalRef: event.ref, acquisitionRef: '',
        };
        if (!isZero(costsLeft)) match.disposalCosts = toDecimal(costsLeft);
        matches.push(match);
      }
      return matches;
    },
    finish(): Match[] {
      return [];
    },
    holdings(): OpenHolding[] {
      const out: OpenHolding[] = [];
      for (const { asset, pool, store } of stores.all) {
        for (const l of store.lots()) out.push({ asset, pool, quantity: toDecimal(l.quantity), cost: toDecimal(l.cost), acquiredDay: l.day, ref: l.ref });
      }
      return out;
    },
  };
}

// The lots a selection names, all of them or an error: an identification the ledger cannot honour
// (a lot not held in this wallet at the disposal, or more units than the disposal) is the user's
// to fix, not something to guess around.
function takeSelected(store: LotStore, event: Disposal, chosen: SelectedDisposal, pool: string, file: string): LotPart[] {
  const fail = (line: number, column: number, message: string, hint: string): never => {
    throw new TradeledgerError('GAINS_LOTS_FILE', `${file} line ${line} column ${column} (${['disposal', 'lot', 'quantity'][column - 1]}): ${message}`, { kind: 'config', hint, details: { file, line, column } });
  };
  chosen.used = true;
  const total = chosen.lots.reduce((s, l) => s.plus(l.quantity), ZERO);
  if (total.gt(event.quantity)) {
    fail(chosen.line, 3, `the lots named for ${chosen.name} add up to ${total.toFixed()} ${event.asset}, more than the ${event.quantity.toFixed()} disposed of`, 'Name at most the disposal\'s quantity; the rest is matched first in, first out.');
  }
  if (!store.takeRef) fail(chosen.line, 2, 'specific identification needs ordered lots (US rules)', 'Use --lots with --rules us.');
  const parts: LotPart[] = [];
  for (const sel of chosen.lots) {
    const got = store.takeRef!(sel.lot, fromDecimal(sel.quantity));
    const held = toDecimal(sumQuantities(got));
    if (held.lt(sel.quantity)) {
      fail(sel.line, 2, `the lot ${sel.lot} holds ${held.toFixed()} ${event.asset} in ${pool === UNIVERSAL ? 'the pool' : `wallet ${pool}`} when ${event.ref} (${event.day}) disposes, not ${sel.quantity.toFixed()}`,
        'Name a lot acquired before the disposal in the same wallet (Treas. Reg. 1.1012-1(j)), with no more units than it still holds.');
    }
    parts.push(...got);
  }
  return parts;
}

/** Units of one acquisition sitting in one wallet (the record kept for the switch to wallets). */
interface PhysicalUnit { ref: string; ts: number; quantity: Scaled }

// An acquisition's units as made by push(): a class, not an object literal, so V8 does not
// decide from the literal's allocation site to make every one in the old generation (see
// OpenLot in lotStore.ts).
class Unit implements PhysicalUnit {
  constructor(public ref: string, public ts: number, public quantity: Scaled) {}
}

// Keeps a wallet's units in time order (a moved-in unit can be older than those already there).
function insertUnit(units: PhysicalUnit[], u: PhysicalUnit): void {
  let i = units.length;
  if (i === 0 || units[i - 1]!.ts <= u.ts) { units.push(u); return; }
  while (i > 0 && units[i - 1]!.ts > u.ts) i--;
  units.splice(i, 0, u);
}

// Takes `quantity` units out of a wallet, oldest first, where a disposal took them.
function dropUnits(units: PhysicalUnit[], quantity: Scaled): void {
  let left = quantity;
  while (left.m > 0 && units.length > 0) {
    const u = units[0]!;
    if (cmp(u.quantity, left) <= 0) {
      units.shift();
      left = sub(left, u.quantity);
    } else {
      u.quantity = sub(u.quantity, left);
      return;
    }
  }
}

// Takes `quantity` units out of a wallet, oldest first; returns them (maybe fewer).
function takeUnits(units: PhysicalUnit[], quantity: Scaled): PhysicalUnit[] {
  const out: PhysicalUnit[] = [];
  let left = quantity;
  while (left.m > 0 && units.length > 0) {
    const u = units[0]!;
    if (cmp(u.quantity, left) <= 0) {
      out.push(units.shift()!);
      left = sub(left, u.quantity);
    } else {
      out.push({ ...u, quantity: left });
      u.quantity = sub(u.quantity, left);
      left = S_ZERO;
    }
  }
  return out;
}

// Takes up to `want` from the first of `parts` (removing it when used up, else cutting it pro
// rata with the rest of its cost kept).
function splitPart(parts: LotPart[], want: Scaled): LotPart {
  const first = parts[0]!;
  if (cmp(first.quantity, want) <= 0) return parts.shift()!;
  const cost = proRata(first.cost, want, first.quantity);
  parts[0] = { ...first, quantity: sub(first.quantity, want), cost: sub(first.cost, cost) };
  return { ...first, quantity: want, cost };
}

function asLot(part: LotPart): OpenLot {
  return new OpenLot(part.quantity, part.cost, part.ts, part.day ?? '', part.ref);
}
