import { proRata, ZERO } from './gainsDecimal.js';
import type { GainsDecimal } from './gainsDecimal.js';
import { lotStore } from './lotStore.js';
import type { LotPart, LotStore } from './lotStore.js';
import type { Disposal, GainsEvent, Match, Matcher, OpenHolding } from './gainsEvent.js';
import type { LotSelections, SelectedDisposal } from './lotSelections.js';
import { TradeledgerError } from '../errors.js';

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
   * 2024-28). At the switch the open universal lots are handed to the wallets that hold the coins,
   * oldest lots first, wallets in name order: one written, consistently applied allocation rule.
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
  // Per-wallet balances, kept while pools are universal so the switch to wallets knows who holds what.
  const balances = new Map<string, { asset: string; pool: string; quantity: GainsDecimal }>();
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

  const track = (asset: string, pool: string, delta: GainsDecimal) => {
    const k = key(asset, pool);
    const b = balances.get(k);
    if (b) b.quantity = b.quantity.plus(delta);
    else balances.set(k, { asset, pool, quantity: delta });
  };

  const switchToWallets = () => {
    const universal = [...stores.values()];
    stores.clear();
    perWallet = true;
    for (const { asset, store } of universal) {
      const holders = [...balances.values()].filter((b) => b.asset === asset && b.quantity.gt(0)).sort((a, b) => (a.pool < b.pool ? -1 : 1));
      for (const holder of holders) {
        for (const part of takeForMove(store, holder.quantity)) storeOf(asset, holder.pool).add(asLot(part));
      }
      // Lots nobody's balance accounts for (data with gaps) stay visible in a pool of their own.
      for (const part of store.take(store.quantity())) storeOf(asset, '(unallocated)').add(asLot(part));
    }
    balances.clear();
  };

  const takeForMove = (store: LotStore, quantity: GainsDecimal): LotPart[] => store.take(quantity);

  return {
    push(event: GainsEvent): Match[] {
      if (switchDay !== undefined && !perWallet && event.day >= switchDay) switchToWallets();
      // Balances per wallet matter only for the switch to wallets (the US in 2025).
      const tracking = switchDay !== undefined && !perWallet;
      if (tracking) track(event.asset, event.pool, event.type === 'acquire' ? event.quantity : event.quantity.neg());
      if (event.type === 'acquire') {
        storeOf(event.asset, event.pool).add({ quantity: event.quantity, cost: event.cost, ts: event.ts, day: event.day, ref: event.ref });
        return [];
      }
      if (event.type === 'move') {
        if (!perWallet) { if (tracking) track(event.asset, event.toPool, event.quantity); return []; }
        const parts = takeForMove(storeOf(event.asset, event.pool), event.quantity);
        const into = storeOf(event.asset, event.toPool);
        for (const part of parts) into.add(asLot(part));
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

function asLot(part: LotPart) {
  return { quantity: part.quantity, cost: part.cost, ts: part.ts, day: part.day ?? '', ref: part.ref };
}
