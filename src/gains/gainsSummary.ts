import { GainsDecimal, ZERO } from './gainsDecimal.js';
import type { Match } from './gainsEvent.js';
import type { RuleSetName } from './ruleSets.js';
import type { DemoNote } from '../reports/demoAccounts.js';

interface Totals { disposals: number; proceeds: GainsDecimal; cost: GainsDecimal; gains: GainsDecimal; losses: GainsDecimal }
const totals = (): Totals => ({ disposals: 0, proceeds: ZERO, cost: ZERO, gains: ZERO, losses: ZERO });

/** summary.json's shape; money as decimal strings in the run's fiat. */
export interface GainsSummary {
  rules: RuleSetName;
  taxYear: number;
  period: { from: string; to: string; tz: string };
  fiat: string;
  matches: number;
  total: Record<keyof Totals, string | number>;
  /** The same per rule class (short/long, taxable/exempt, discount/no-discount, UK matching rule). */
  byClass: Record<string, { rows: number; proceeds: string; cost: string; gains: string; losses: string }>;
  income: Record<string, string>;
  holdings: { asset: string; quantity: string; cost: string }[];
  /** UK: the SA108 capital gains figures for cryptoassets. */
  sa108?: { numberOfDisposals: number; disposalProceeds: string; allowableCosts: string; gainsBeforeLosses: string; losses: string; source: string };
  /** Germany: Anlage SO, private sales of other assets (§ 23 Abs. 1 Satz 1 Nr. 2 EStG). */
  anlageSO?: { taxableGains: string; taxableLosses: string; net: string; exemptNet: string; freigrenze: string; belowFreigrenze: boolean; taxableAmount: string; source: string };
  /** Australia: gains eligible for the CGT discount and the rest. */
  cgtDiscount?: { discountableGains: string; otherGains: string; losses: string; source: string };
  dataQuality: Record<string, number>;
  /** Demo-trading (paper) accounts: left out (the default) or included at value 0, and why. */
  demo: DemoNote;
}

/**
 * Adds up a run's matches per disposal (a gain or a loss is decided per disposal, all its matched
 * parts together; UK same-day disposals of an asset are one disposal, CRYPTO22252) and per class.
 *
 * @example
 * const acc = new GainsSummaryBuilder('uk'); acc.add(match, 's104'); const s = acc.result(meta);
 */
export class GainsSummaryBuilder {
  private readonly all = totals();
  private readonly classes = new Map<string, Totals>();
  private readonly open = new Map<string, { proceeds: GainsDecimal; cost: GainsDecimal }>();
  private lastKey = '';
  private count = 0;

  constructor(private readonly rules: RuleSetName) {}

  add(m: Match, cls: string): void {
    this.count++;
    // UK: one disposal per asset and day; elsewhere one per disposal event. A disposal's parts come
    // together from the lot matchers, so only the UK needs to keep disposals open to the end.
    const key = this.rules === 'uk' ? `${m.asset}|${m.disposedDay}` : `${m.disposalRef}|${m.disposedTs}`;
    const slot = `${key}|${this.rules === 'uk' ? '' : cls}`;
    if (this.rules !== 'uk' && slot !== this.lastKey) this.flushAll();
    this.lastKey = slot;
    const d = this.open.get(slot) ?? { proceeds: ZERO, cost: ZERO };
    d.proceeds = d.proceeds.plus(m.proceeds);
    d.cost = d.cost.plus(m.cost);
    this.open.set(slot, d);
    const c = this.classes.get(cls) ?? totals();
    c.disposals++;
    c.proceeds = c.proceeds.plus(m.proceeds);
    c.cost = c.cost.plus(m.cost);
    const g = m.proceeds.minus(m.cost);
    if (g.gte(0)) c.gains = c.gains.plus(g); else c.losses = c.losses.plus(g.neg());
    this.classes.set(cls, c);
  }

  result(meta: { taxYear: number; from: string; to: string; tz: string; fiat: string; income: Map<string, GainsDecimal>; holdings: GainsSummary['holdings']; dataQuality: Record<string, number>; demo: DemoNote }): GainsSummary {
    this.flushAll();
    const fmt = (t: Totals) => ({ disposals: t.disposals, proceeds: t.proceeds.toFixed(), cost: t.cost.toFixed(), gains: t.gains.toFixed(), losses: t.losses.toFixed() });
    // Per class the count is of gains.csv rows: one UK disposal can be part same-day, part s104.
    const byClass = Object.fromEntries([...this.classes].sort(([a], [b]) => a.localeCompare(b))
      .map(([k, t]) => [k, { rows: t.disposals, proceeds: t.proceeds.toFixed(), cost: t.cost.toFixed(), gains: t.gains.toFixed(), losses: t.losses.toFixed() }]));
    const summary: GainsSummary = {
      rules: this.rules, taxYear: meta.taxYear, period: { from: meta.from, to: meta.to, tz: meta.tz }, fiat: meta.fiat,
      matches: this.count, total: fmt(this.all), byClass,
      income: Object.fromEntries([...meta.income].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.toFixed()])),
      holdings: meta.holdings, dataQuality: meta.dataQuality, demo: meta.demo,
    };
    if (this.rules === 'uk') {
      summary.sa108 = {
        numberOfDisposals: this.all.disposals, disposalProceeds: this.all.proceeds.toFixed(2), allowableCosts: this.all.cost.toFixed(2),
        gainsBeforeLosses: this.all.gains.toFixed(2), losses: this.all.losses.toFixed(2),
        source: 'HMRC SA108 capital gains summary, cryptoassets section; matching per CRYPTO22200 onwards',
      };
    }
    if (this.rules === 'de') {
      const t = this.classes.get('taxable') ?? totals();
      const e = this.classes.get('exempt') ?? totals();
      const net = t.gains.minus(t.losses);
      // § 23 Abs. 3 Satz 5 EStG: a Freigrenze, not an allowance. EUR 1,000 from 2024
      // (Wachstumschancengesetz), EUR 600 before; at or above it the whole amount is taxable.
      const limit = new GainsDecimal(meta.taxYear >= 2024 ? 1000 : 600);
      const below = net.lt(limit);
      summary.anlageSO = {
        taxableGains: t.gains.toFixed(2), taxableLosses: t.losses.toFixed(2), net: net.toFixed(2), exemptNet: e.gains.minus(e.losses).toFixed(2),
        freigrenze: limit.toFixed(2), belowFreigrenze: below, taxableAmount: below && net.gt(0) ? '0.00' : net.toFixed(2),
        source: '§ 23 Abs. 1 Satz 1 Nr. 2 and Abs. 3 Satz 5 EStG; the Freigrenze counts all private sales of the year, not only these',
      };
    }
    if (this.rules === 'au') {
      const d = this.classes.get('discount') ?? totals();
      const n = this.classes.get('no-discount') ?? totals();
      summary.cgtDiscount = {
        discountableGains: d.gains.toFixed(2), otherGains: n.gains.toFixed(2), losses: d.losses.plus(n.losses).toFixed(2),
        source: 'ATO: CGT discount for assets held at least 12 months (losses are applied before the 50% discount)',
      };
    }
    return summary;
  }

  private flushAll(): void {
    for (const d of this.open.values()) {
      this.all.disposals++;
      this.all.proceeds = this.all.proceeds.plus(d.proceeds);
      this.all.cost = this.all.cost.plus(d.cost);
      const g = d.proceeds.minus(d.cost);
      if (g.gte(0)) this.all.gains = this.all.gains.plus(g); else this.all.losses = this.all.losses.plus(g.neg());
    }
    this.open.clear();
  }
}
