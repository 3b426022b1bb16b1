// lotMatcher.ts as it was on main at f7a9080, before the engine computed in scaled integers (issue 24
// item 5), kept for the paired benchmark and the identity test (see matchersBefore.ts).
import { proRata, ZERO } from '../../../src/gains/gainsDecimal.js';
import type { GainsDecimal } from '../../../src/gains/gainsDecimal.js';
import { lotStore } from './lotStoreBefore.js';
import type { LotPart, LotStore } from './lotStoreBefore.js';
import type { Disposal, GainsEvent, Match, Matcher, OpenHolding } from '../../../src/gains/gainsEvent.js';
import type { LotSelections, SelectedDisposal } from '../../../src/gains/lotSelections.js';
import { TradeledgerError } from '../../../src/errors.js';

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
interface Claim { toPool: string; quantity: GainsDecimal; ts: number }

// Gives units that just reached TRANSIT to the claims waiting for them, oldest first; claims older
// than CLAIM_MS are dropped (their other side never came: data with gaps).
function settleClaims(claims: Claim[], ts: number, give: (claim: Claim, want: GainsDecimal) => GainsDecimal): void {
  while (claims.length > 0 && ts - claims[0]!.ts > CLAIM_MS) claims.shift();
  while (claims.length > 0) {
    const claim = claims[0]!;
    const got = give(claim, claim.quantity);
    claim.quantity = claim.quantity.minus(got);
    if (claim.quantity.gt(0)) return;
    claims.shift();
  }
}
const key = (asset: string, pool: string) => `${asset}\u0000${pool}`;

/**
 * FIFO, LIFO, HIFO and average-cost matching of a time-ordered event stream, holding only the open
 * lots. A disposal larger than what is held is matched as far as it goes; the rest is a 'no-cost'
 * match (cost 0), which the report flags.
 *
 * @example
 * const m = lotMatcher({ method: 'fifo', pools: 'universal' });
 * const matches = events.flatMap((e) => m.push(e)).concat(m.finish());
 */
export function lotMatcher(options: LotMatcherOptions): Matcher {
  const stores = new Map<string, { asset: string; pool: string; store: LotStore }>();
  // While pools are universal and a switch to wallets is ahead (the US before 2025): which units,
  // of which acquisition, sit in which wallet. Acquisitions land in their wallet, own-account
  // moves carry units (first in, first out within the wallet) to another, disposals take units
  // out of their wallet first in, first out. The universal FIFO may have matched a sale from one
  // wallet with another wallet's older lot; this record still knows where the coins are.
  const physical = new Map<string, { asset: string; pool: string; units: PhysicalUnit[] }>();
  let perWallet = options.pools === 'wallet' && options.walletFromDay === undefined;
  const switchDay = options.pools === 'wallet' ? options.walletFromDay : undefined;

  const storeOf = (asset: string, pool: string): LotStore => {
    const p = perWallet ? pool : UNIVERSAL;
    const k = key(asset, p);
    let entry = stores.get(k);
    if (!entry) {
      entry = { asset, pool: p, store: lotStore(options.method) };
      stores.set(k, entry);
    }
    return entry.store;
  };

  const unitsOf = (asset: string, pool: string): PhysicalUnit[] => {
    const k = key(asset, pool);
    let entry = physical.get(k);
    if (!entry) {
      entry = { asset, pool, units: [] };
      physical.set(k, entry);
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
    const universal = [...stores.values()];
    stores.clear();
    perWallet = true;
    for (const { asset, store } of universal) {
      const open = store.take(store.quantity());
      const byRef = new Map<string, LotPart[]>();
      for (const part of open) byRef.set(part.ref, [...(byRef.get(part.ref) ?? []), part]);
      const held = [...physical.values()].filter((w) => w.asset === asset)
        .flatMap((w) => w.units.map((u) => ({ pool: w.pool, ...u })))
        .sort((a, b) => a.ts - b.ts || (a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0));
      const uncovered: { pool: string; quantity: GainsDecimal }[] = [];
      for (const unit of held) {
        let want = unit.quantity;
        const parts = byRef.get(unit.ref) ?? [];
        while (want.gt(0) && parts.length > 0) {
          const part = splitPart(parts, want);
          storeOf(asset, unit.pool).add(asLot(part));
          want = want.minus(part.quantity);
        }
        if (want.gt(0)) uncovered.push({ pool: unit.pool, quantity: want });
      }
      // What no wallet's own units took, oldest first.
      const rest = [...byRef.values()].flat().sort((a, b) => a.ts - b.ts);
      for (const u of uncovered) {
        let want = u.quantity;
        while (want.gt(0) && rest.length > 0) {
          const part = splitPart(rest, want);
          storeOf(asset, u.pool).add(asLot(part));
          want = want.minus(part.quantity);
        }
      }
      for (const part of rest) storeOf(asset, '(unallocated)').add(asLot(part));
    }
    physical.clear();
    unitClaims.clear();
  };

  const takeForMove = (store: LotStore, quantity: GainsDecimal): LotPart[] => store.take(quantity);

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
  const moveLots = (asset: string, from: string, to: string, quantity: GainsDecimal, ts: number) => {
    const parts = takeForMove(storeOf(asset, from), quantity);
    const into = storeOf(asset, to);
    for (const part of parts) into.add(asLot(part));
    if (from === TRANSIT) {
      const got = parts.reduce((s, p) => s.plus(p.quantity), ZERO);
      if (got.lt(quantity)) claimsOf(storeClaims, asset).push({ toPool: to, quantity: quantity.minus(got), ts });
    }
    if (to === TRANSIT) settleClaims(claimsOf(storeClaims, asset), ts, (claim, want) => {
      const given = takeForMove(storeOf(asset, TRANSIT), want);
      for (const part of given) storeOf(asset, claim.toPool).add(asLot(part));
      return given.reduce((s, p) => s.plus(p.quantity), ZERO);
    });
  };
  const moveUnits = (asset: string, from: string, to: string, quantity: GainsDecimal, ts: number) => {
    const moved = takeUnits(unitsOf(asset, from), quantity);
    for (const u of moved) insertUnit(unitsOf(asset, to), u);
    if (from === TRANSIT) {
      const got = moved.reduce((s, u) => s.plus(u.quantity), ZERO);
      if (got.lt(quantity)) claimsOf(unitClaims, asset).push({ toPool: to, quantity: quantity.minus(got), ts });
    }
    if (to === TRANSIT) settleClaims(claimsOf(unitClaims, asset), ts, (claim, want) => {
      const given = takeUnits(unitsOf(asset, TRANSIT), want);
      for (const u of given) insertUnit(unitsOf(asset, claim.toPool), u);
      return given.reduce((s, u) => s.plus(u.quantity), ZERO);
    });
  };

  return {
    push(event: GainsEvent): Match[] {
      if (switchDay !== undefined && !perWallet && event.day >= switchDay) switchToWallets();
      // Where the units are matters only for the switch to wallets (the US in 2025).
      if (switchDay !== undefined && !perWallet) {
        if (event.type === 'acquire') insertUnit(unitsOf(event.asset, event.pool), { ref: event.ref, ts: event.ts, quantity: event.quantity });
        else if (event.type === 'move') moveUnits(event.asset, event.pool, event.toPool, event.quantity, event.ts);
        else takeUnits(unitsOf(event.asset, event.pool), event.quantity);
      }
      if (event.type === 'acquire') {
        storeOf(event.asset, event.pool).add({ quantity: event.quantity, cost: event.cost, ts: event.ts, day: event.day, ref: event.ref });
        return [];
      }
      if (event.type === 'move') {
        if (!perWallet) return [];
        moveLots(event.asset, event.pool, event.toPool, event.quantity, event.ts);
        return [];
      }
      const store = storeOf(event.asset, event.pool);
      const pool = perWallet ? event.pool : UNIVERSAL;
      const basis = options.method;
      const chosen = options.selections?.forDisposal(event);
      const specific = chosen ? takeSelected(store, event, chosen, pool, options.selections!.file) : [];
      // Without a selection (nearly always) the disposal goes to the store as it is.
      const named = chosen ? specific.reduce((s, p) => s.plus(p.quantity), ZERO) : ZERO;
      const parts = !chosen ? store.take(event.quantity) : named.eq(event.quantity) ? [] : store.take(event.quantity.minus(named));
      const only = parts.length === 1 && specific.length === 0 ? parts[0]! : undefined;
      if (only && only.quantity.eq(event.quantity)) {
        // The common case: one lot covers the disposal.
        return [{
          asset: event.asset, quantity: event.quantity, proceeds: event.proceeds, cost: only.cost, gain: event.proceeds.minus(only.cost), basis,
          acquiredDay: only.day, disposedDay: event.day, disposedTs: event.ts, pool, disposalRef: event.ref, acquisitionRef: only.ref,
          ...(event.costs ? { disposalCosts: event.costs } : {}),
        }];
      }
      const matches: Match[] = [];
      const allCosts = event.costs ?? ZERO;
      let proceedsLeft = event.proceeds;
      let costsLeft = allCosts;
      let qtyLeft = event.quantity;
      const emit = (part: LotPart, partBasis: Match['basis']) => {
        // Shares rounded once (proRata); the last part takes what is left, so the parts add up exactly.
        const last = part.quantity.eq(qtyLeft);
        const proceeds = last ? proceedsLeft : proRata(event.proceeds, part.quantity, event.quantity);
        const costs = last ? costsLeft : proRata(allCosts, part.quantity, event.quantity);
        proceedsLeft = proceedsLeft.minus(proceeds);
        costsLeft = costsLeft.minus(costs);
        qtyLeft = qtyLeft.minus(part.quantity);
        matches.push({
          asset: event.asset, quantity: part.quantity, proceeds, cost: part.cost, gain: proceeds.minus(part.cost), basis: partBasis,
          acquiredDay: part.day, disposedDay: event.day, disposedTs: event.ts, pool,
          disposalRef: event.ref, acquisitionRef: part.ref, ...(costs.isZero() ? {} : { disposalCosts: costs }),
        });
      };
      for (const part of specific) emit(part, 'specific');
      for (const part of parts) emit(part, basis);
      if (qtyLeft.gt(0)) {
        matches.push({
          asset: event.asset, quantity: qtyLeft, proceeds: proceedsLeft, cost: ZERO, gain: proceedsLeft, basis: 'no-cost',
          acquiredDay: null, disposedDay: event.day, disposedTs: event.ts, pool,
          disposalRef: event.ref, acquisitionRef: '', ...(costsLeft.isZero() ? {} : { disposalCosts: costsLeft }),
        });
      }
      return matches;
    },
    finish(): Match[] {
      return [];
    },
    holdings(): OpenHolding[] {
      const out: OpenHolding[] = [];
      for (const { asset, pool, store } of stores.values()) {
        for (const l of store.lots()) out.push({ asset, pool, quantity: l.quantity, cost: l.cost, acquiredDay: l.day, ref: l.ref });
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
    const got = store.takeRef!(sel.lot, sel.quantity);
    const held = got.reduce((s, p) => s.plus(p.quantity), ZERO);
    if (held.lt(sel.quantity)) {
      fail(sel.line, 2, `the lot ${sel.lot} holds ${held.toFixed()} ${event.asset} in ${pool === UNIVERSAL ? 'the pool' : `wallet ${pool}`} when ${event.ref} (${event.day}) disposes, not ${sel.quantity.toFixed()}`,
        'Name a lot acquired before the disposal in the same wallet (Treas. Reg. 1.1012-1(j)), with no more units than it still holds.');
    }
    parts.push(...got);
  }
  return parts;
}

/** Units of one acquisition sitting in one wallet (the record kept for the switch to wallets). */
interface PhysicalUnit { ref: string; ts: number; quantity: GainsDecimal }

// Keeps a wallet's units in time order (a moved-in unit can be older than those already there).
function insertUnit(units: PhysicalUnit[], u: PhysicalUnit): void {
  let i = units.length;
  while (i > 0 && units[i - 1]!.ts > u.ts) i--;
  units.splice(i, 0, u);
}

// Takes `quantity` units out of a wallet, oldest first; returns them (maybe fewer).
function takeUnits(units: PhysicalUnit[], quantity: GainsDecimal): PhysicalUnit[] {
  const out: PhysicalUnit[] = [];
  let left = quantity;
  while (left.gt(0) && units.length > 0) {
    const u = units[0]!;
    if (u.quantity.lte(left)) {
      out.push(units.shift()!);
      left = left.minus(u.quantity);
    } else {
      out.push({ ...u, quantity: left });
      u.quantity = u.quantity.minus(left);
      left = ZERO;
    }
  }
  return out;
}

// Takes up to `want` from the first of `parts` (removing it when used up, else cutting it pro
// rata with the rest of its cost kept).
function splitPart(parts: LotPart[], want: GainsDecimal): LotPart {
  const first = parts[0]!;
  if (first.quantity.lte(want)) return parts.shift()!;
  const cost = proRata(first.cost, want, first.quantity);
  parts[0] = { ...first, quantity: first.quantity.minus(want), cost: first.cost.minus(cost) };
  return { ...first, quantity: want, cost };
}

function asLot(part: LotPart) {
  return { quantity: part.quantity, cost: part.cost, ts: part.ts, day: part.day ?? '', ref: part.ref };
}
