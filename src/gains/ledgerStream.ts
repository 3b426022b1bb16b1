import { ledgerEvents } from './ledgerEvents.js';
import type { LedgerOutcome, ValuedRow } from './ledgerEvents.js';
import { OwnTransfers } from './ownTransfers.js';

/**
 * Turns the valued ledger, read in time order (ts, source, source_id, leg), into the outcomes of
 * its transactions (ledgerEvents), one transaction being the rows of one source and source_id at
 * one instant. The transactions of one instant are turned into events together once the instant
 * is over, the arriving side of a movement last, so it finds what left in the same instant:
 *  - an internal transfer between two of the user's accounts is one withdrawal and one deposit at
 *    the same millisecond. Read in source order ('deposits' before 'withdrawals') the deposit
 *    found nothing pending, came in as an acquisition at market value, and the withdrawal's lots
 *    went out to an external pool for good;
 *  - a transfer from spot to a futures wallet is the E19 leg out of spot (source 'transfers') and
 *    the futures wallet's trans_in bill ('futures_bills') at the same millisecond. Read in source
 *    order the bill took nothing from the empty transit pool and the lots stayed in transit: the
 *    futures wallet's later losses and fees were disposals without a cost (US per-wallet pools).
 * Both showed as the Koinly round trip's residue (issue 21, docs/ledger.md), where the file
 * leaves such movements out. runGains and the round-trip test read the ledger through this one
 * class, so both group and order it alike.
 *
 * @example
 * const s = new LedgerStream('USD'); for (const row of rows) for (const o of s.push(row)) use(o); for (const o of s.finish()) use(o);
 */
export class LedgerStream {
  private readonly transfers = new OwnTransfers();
  private group: ValuedRow[] = [];
  private instant: ValuedRow[][] = [];

  constructor(private readonly fiat: string) {}

  /** Adds the next row; returns the outcomes of the instant it ends, if it starts a new one. */
  push(row: ValuedRow): LedgerOutcome[] {
    const head = this.group[0];
    let out: LedgerOutcome[] = [];
    if (head && head.ms !== row.ms) out = this.endInstant();
    else if (head && (head.source !== row.source || head.source_id !== row.source_id)) this.endGroup();
    this.group.push(row);
    return out;
  }

  /** The outcomes of the last instant. */
  finish(): LedgerOutcome[] {
    return this.endInstant();
  }

  private endGroup(): void {
    if (this.group.length > 0) this.instant.push(this.group);
    this.group = [];
  }

  private endInstant(): LedgerOutcome[] {
    this.endGroup();
    const groups = this.instant;
    this.instant = [];
    // Most instants hold one transaction: nothing to order (issue 24).
    if (groups.length === 1) return [ledgerEvents(groups[0]!, this.fiat, this.transfers)];
    return [...groups.filter((g) => !isArrival(g)), ...groups.filter(isArrival)].map((g) => ledgerEvents(g, this.fiat, this.transfers));
  }
}

// A transaction that only brings coins in from elsewhere: a deposit, or the arriving side of an
// own-account transfer recorded without its other side.
function isArrival(rows: ValuedRow[]): boolean {
  return rows.some((r) => r.kind === 'deposit') || (rows.some((r) => r.kind === 'transfer_in') && !rows.some((r) => r.kind === 'transfer_out'));
}
