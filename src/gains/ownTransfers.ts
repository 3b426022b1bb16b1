import type { GainsDecimal } from './gainsDecimal.js';

interface Pending { coin: string; quantity: GainsDecimal; txid: string; pool: string; fromPool: string; ms: number }

const DAY_MS = 86_400_000;

/**
 * Withdrawals waiting for the deposit that ends them: a coin leaving one account or imported
 * wallet and arriving in another is an own-account movement, not a disposal and an acquisition.
 * A deposit matches a pending withdrawal of the same coin from another pool by its transaction
 * hash, else by amount (the deposit 95-100% of the withdrawal, the rest a network fee) within a
 * day. Bounded: withdrawals older than 30 days are dropped (they stay moved out).
 *
 * @example
 * const t = new OwnTransfers(); t.withdrawn({ ... }); t.deposited('BTC', qty, '0xabc', ms, 'ledger-y');
 */
export class OwnTransfers {
  private pending: Pending[] = [];

  withdrawn(p: Pending): void {
    this.pending = this.pending.filter((x) => p.ms - x.ms <= 30 * DAY_MS);
    this.pending.push(p);
  }

  /** The pending withdrawal this deposit ends (removed), with how it was matched, or undefined. */
  deposited(coin: string, quantity: GainsDecimal, txid: string | null, ms: number, pool: string): { from: Pending; by: 'txid' | 'amount' } | undefined {
    const candidates = this.pending.filter((x) => x.coin === coin && x.fromPool !== pool && x.ms <= ms);
    let found = txid ? candidates.find((x) => x.txid !== '' && x.txid === txid) : undefined;
    let by: 'txid' | 'amount' = 'txid';
    if (!found) {
      by = 'amount';
      found = candidates.find((x) => ms - x.ms <= DAY_MS && quantity.lte(x.quantity) && quantity.gte(x.quantity.times('0.95')));
    }
    if (!found) return undefined;
    this.pending.splice(this.pending.indexOf(found), 1);
    return { from: found, by };
  }
}
