import { GainsDecimal, sumOf, ZERO } from './gainsDecimal.js';
import type { Match } from './gainsEvent.js';
import type { RuleSetName } from './ruleSets.js';
import { australianNetCapitalGain, CA_INCLUSION_RATE, canadaTaxableCapitalGain, SA108_ROUNDING, UK_RATE_CHANGE_DAY, wholePounds } from './returnFigures.js';
import type { DemoNote } from '../reports/demoAccounts.js';
import type { IncompleteFigure } from './incompleteFigures.js';

interface Totals { disposals: number; proceeds: GainsDecimal; disposalCosts: GainsDecimal; cost: GainsDecimal; gains: GainsDecimal; losses: GainsDecimal; deniedLosses: GainsDecimal }
const totals = (): Totals => ({ disposals: 0, proceeds: ZERO, disposalCosts: ZERO, cost: ZERO, gains: ZERO, losses: ZERO, deniedLosses: ZERO });

/** One SA108 box: its number on the form, what it holds, and the figure in whole pounds. */
export interface FormBox { box: string; label: string; value: string }

/** UK SA108 figures of one period, exact (money as decimal strings). */
export interface Sa108Figures { numberOfDisposals: number; disposalProceeds: string; allowableCosts: string; gainsBeforeLosses: string; losses: string }

/** summary.json's shape; money as exact decimal strings in the run's fiat. */
export interface GainsSummary {
  rules: RuleSetName;
  taxYear: number;
  period: { from: string; to: string; tz: string };
  fiat: string;
  matches: number;
  /** proceeds are net of disposal costs (gross = proceeds + disposalCosts); gains and losses per disposal. */
  total: Record<keyof Totals, string | number>;
  /** The same per rule class (short/long, taxable/exempt, discount/no-discount, UK matching rule). */
  byClass: Record<string, { rows: number; proceeds: string; cost: string; gains: string; losses: string }>;
  income: Record<string, string>;
  holdings: { asset: string; quantity: string; cost: string }[];
  /**
   * UK: SA108 capital gains summary, cryptoassets: exact figures, proceeds GROSS (before the costs
   * of disposal) and allowable costs including those costs (HMRC HS284 Example 3), the boxes in
   * whole pounds, and for 2024-25 the split at 30 October 2024.
   */
  sa108?: Sa108Figures & { boxes: FormBox[]; rounding: string; periods?: { from: string; to: string; label: string; figures: Sa108Figures; boxes: FormBox[] }[]; source: string };
  /** Germany: Anlage SO, private sales of other assets (§ 23 Abs. 1 Satz 1 Nr. 2 EStG), with its lines. */
  anlageSO?: {
    taxableGains: string; taxableLosses: string; net: string; exemptNet: string; freigrenze: string; belowFreigrenze: boolean; taxableAmount: string;
    lines: { line: string; label: string; value: string }[]; source: string;
  };
  /** Australia: gains eligible for the CGT discount and the rest, and the net capital gain. */
  cgtDiscount?: { discountableGains: string; otherGains: string; losses: string; totalCurrentYearGains: string; netCapitalGain: string; lossesCarriedForward: string; labels: { label: string; text: string; value: string }[]; source: string };
  /** Canada: Schedule 3 columns, the taxable capital gain (line 12700) and superficial losses denied. */
  schedule3?: { proceeds: string; adjustedCostBase: string; outlaysAndExpenses: string; gains: string; losses: string; net: string; inclusionRate: string; taxableCapitalGain: string; netCapitalLoss: string; superficialLossesDenied: string; source: string };
  /** US: Schedule D totals from Form 8949, short term (Part I) and long term (Part II). */
  scheduleD?: { shortTerm: { proceeds: string; cost: string; gain: string }; longTerm: { proceeds: string; cost: string; gain: string }; source: string };
  dataQuality: Record<string, number>;
  /**
   * Why these figures are not yet the return's (incompleteFigures.ts): rows valued 0 for want of a
   * price, disposals with a cost of 0 for want of lots, a country's rules in another currency than
   * its return's. Empty when none of these holds.
   */
  incomplete: IncompleteFigure[];
  /** Demo-trading (paper) accounts: left out (the default) or included at value 0, and why. */
  demo: DemoNote;
}

// Values a running sum holds before adding them up: a chunk is summed at once (sumOf), which
// costs a third of adding one by one, and few enough are held that they die young.
const SUM_CHUNK = 256;

/**
 * A running total of decimals, exact as adding them one by one is (sumOf: rounded once per chunk
 * at 60 significant digits, never reached by these sums). `add` only keeps the value: one
 * `plus` per value per total was most of what a gains run's summary cost (issue 24: ~390 ms of a
 * 108,000-match FIFO run, BENCHMARKS.md, session 18).
 */
class DecimalSum {
  private parts: GainsDecimal[] = [];
  private total: GainsDecimal = ZERO;

  add(v: GainsDecimal): void {
    this.parts.push(v);
    if (this.parts.length >= SUM_CHUNK) this.fold();
  }

  value(): GainsDecimal {
    if (this.parts.length > 0) this.fold();
    return this.total;
  }

  private fold(): void {
    this.parts.push(this.total);
    this.total = sumOf(this.parts);
    this.parts = [];
  }
}

/** Totals while they are being added up ({@link Totals} once read). */
interface Running { disposals: number; proceeds: DecimalSum; disposalCosts: DecimalSum; cost: DecimalSum; gains: DecimalSum; losses: DecimalSum; deniedLosses: DecimalSum }
const running = (): Running => ({
  disposals: 0, proceeds: new DecimalSum(), disposalCosts: new DecimalSum(), cost: new DecimalSum(), gains: new DecimalSum(), losses: new DecimalSum(), deniedLosses: new DecimalSum(),
});
const totalsOf = (r: Running | undefined): Totals => (r === undefined ? totals() : {
  disposals: r.disposals, proceeds: r.proceeds.value(), disposalCosts: r.disposalCosts.value(), cost: r.cost.value(),
  gains: r.gains.value(), losses: r.losses.value(), deniedLosses: r.deniedLosses.value(),
});

/** One disposal's matched parts so far (usually one or two): summed when it is closed. */
interface Slot { day: string; proceeds: GainsDecimal[]; costs: GainsDecimal[]; cost: GainsDecimal[]; denied: GainsDecimal[] }

/**
 * Adds up a run's matches per disposal (a gain or a loss is decided per disposal, all its matched
 * parts together; UK same-day disposals of an asset are one disposal, CRYPTO22252) and per class.
 * A disposal split between classes (Germany: part held over a year, part not; US: part short,
 * part long) counts once, while its gain or loss is decided per class.
 *
 * @example
 * const acc = new GainsSummaryBuilder('uk'); acc.add(match, 's104'); const s = acc.result(meta);
 */
export class GainsSummaryBuilder {
  private readonly running = running();
  private readonly runningClasses = new Map<string, Running>();
  private readonly open = new Map<string, Slot>();
  /** UK: totals per period of the tax year (2024-25: before / from 30 October 2024). */
  private readonly runningPeriods = new Map<string, Running>();
  private lastSlot = '';
  private lastDisposal = '';
  private count = 0;

  constructor(private readonly rules: RuleSetName) {}

  add(m: Match, cls: string): void {
    this.count++;
    // UK: one disposal per asset and day; elsewhere one per disposal event. A disposal's parts come
    // together from the lot matchers, so only the UK needs to keep disposals open to the end.
    const key = this.rules === 'uk' ? `${m.asset}|${m.disposedDay}` : `${m.disposalRef}|${m.disposedTs}`;
    const slot = `${key}|${this.rules === 'uk' ? '' : cls}`;
    if (this.rules !== 'uk') {
      if (slot !== this.lastSlot) this.closeOpen();
      if (key !== this.lastDisposal) this.running.disposals++;
      this.lastDisposal = key;
    }
    this.lastSlot = slot;
    let d = this.open.get(slot);
    if (d === undefined) this.open.set(slot, d = { day: m.disposedDay, proceeds: [], costs: [], cost: [], denied: [] });
    d.proceeds.push(m.proceeds);
    if (m.disposalCosts !== undefined) d.costs.push(m.disposalCosts);
    d.cost.push(m.cost);
    if (m.deniedLoss !== undefined) d.denied.push(m.deniedLoss);
    let c = this.runningClasses.get(cls);
    if (c === undefined) this.runningClasses.set(cls, c = running());
    c.disposals++;
    c.proceeds.add(m.proceeds);
    if (m.disposalCosts !== undefined) c.disposalCosts.add(m.disposalCosts);
    c.cost.add(m.cost);
    if (m.deniedLoss !== undefined) c.deniedLosses.add(m.deniedLoss);
    if (m.gain.gte(0)) c.gains.add(m.gain); else c.losses.add(m.gain.neg());
  }

  result(meta: { taxYear: number; from: string; to: string; tz: string; fiat: string; income: Map<string, GainsDecimal>; holdings: GainsSummary['holdings']; dataQuality: Record<string, number>; incomplete?: IncompleteFigure[]; demo: DemoNote }): GainsSummary {
    this.closeOpen();
    const fmt = (t: Totals) => ({
      disposals: t.disposals, proceeds: t.proceeds.toFixed(), disposalCosts: t.disposalCosts.toFixed(), cost: t.cost.toFixed(),
      gains: t.gains.toFixed(), losses: t.losses.toFixed(), deniedLosses: t.deniedLosses.toFixed(),
    });
    // Per class the count is of gains.csv rows: one UK disposal can be part same-day, part s104.
    const byClass = Object.fromEntries([...this.runningClasses].sort(([a], [b]) => a.localeCompare(b))
      .map(([k, r]) => { const t = totalsOf(r); return [k, { rows: t.disposals, proceeds: t.proceeds.toFixed(), cost: t.cost.toFixed(), gains: t.gains.toFixed(), losses: t.losses.toFixed() }]; }));
    const summary: GainsSummary = {
      rules: this.rules, taxYear: meta.taxYear, period: { from: meta.from, to: meta.to, tz: meta.tz }, fiat: meta.fiat,
      matches: this.count, total: fmt(this.all), byClass,
      income: Object.fromEntries([...meta.income].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.toFixed()])),
      holdings: meta.holdings, dataQuality: meta.dataQuality, incomplete: meta.incomplete ?? [], demo: meta.demo,
    };
    if (this.rules === 'uk') summary.sa108 = this.sa108(meta);
    if (this.rules === 'de') summary.anlageSO = this.anlageSO(meta.taxYear);
    if (this.rules === 'au') {
      const d = this.classTotals('discount');
      const n = this.classTotals('no-discount');
      const losses = d.losses.plus(n.losses);
      const a = australianNetCapitalGain({ discountable: d.gains, other: n.gains, losses });
      summary.cgtDiscount = {
        discountableGains: d.gains.toFixed(), otherGains: n.gains.toFixed(), losses: losses.toFixed(),
        totalCurrentYearGains: a.totalCurrentYearGains.toFixed(), netCapitalGain: a.netCapitalGain.toFixed(), lossesCarriedForward: a.lossesCarriedForward.toFixed(),
        labels: [
          { label: 'H', text: 'Total current year capital gains', value: a.totalCurrentYearGains.toFixed() },
          { label: 'A', text: 'Net capital gain', value: a.netCapitalGain.toFixed() },
          { label: 'V', text: 'Net capital losses carried forward to later income years (this year\'s only; earlier years\' losses are not known here)', value: a.lossesCarriedForward.toFixed() },
        ],
        source: 'ATO Guide to capital gains tax: losses first (non-discount gains first), then the 50% discount; net capital gain at label A of item 18 (supplementary section). https://www.ato.gov.au/Forms/Guide-to-capital-gains-tax-2021/?page=100; example https://www.ato.gov.au/Forms/Guide-to-CGT-2002-03/?page=195',
      };
    }
    if (this.rules === 'ca') {
      const t = this.all;
      const c = canadaTaxableCapitalGain(t.gains, t.losses);
      summary.schedule3 = {
        proceeds: t.proceeds.plus(t.disposalCosts).toFixed(), adjustedCostBase: t.cost.toFixed(), outlaysAndExpenses: t.disposalCosts.toFixed(),
        gains: t.gains.toFixed(), losses: t.losses.toFixed(), net: c.net.toFixed(), inclusionRate: CA_INCLUSION_RATE.toFixed(),
        taxableCapitalGain: c.taxableCapitalGain.toFixed(), netCapitalLoss: c.netCapitalLoss.toFixed(), superficialLossesDenied: t.deniedLosses.toFixed(),
        source: 'Schedule 3 columns (2) proceeds of disposition, (3) adjusted cost base, (4) outlays and expenses, (5) gain (or loss); inclusion rate 50% (CRA, "Determining your taxable capital gains (or losses)"); the taxable capital gain goes to line 12700. Superficial losses: ITA s. 54, 40(2)(g)(i), 53(1)(f).',
      };
    }
    if (this.rules === 'us') {
      const part = (cls: string) => {
        const t = this.classTotals(cls);
        return { proceeds: t.proceeds.toFixed(), cost: t.cost.toFixed(), gain: t.gains.minus(t.losses).toFixed() };
      };
      summary.scheduleD = {
        shortTerm: part('short'), longTerm: part('long'),
        source: 'Form 8949 Part I (short term, held one year or less) and Part II (long term) totals, carried to Schedule D; digital assets in boxes G-L from 2025 (docs/gains.md)',
      };
    }
    return summary;
  }

  private sa108(meta: { taxYear: number; from: string; to: string }): NonNullable<GainsSummary['sa108']> {
    const figures = (t: Totals): Sa108Figures => ({
      numberOfDisposals: t.disposals, disposalProceeds: t.proceeds.plus(t.disposalCosts).toFixed(), allowableCosts: t.cost.plus(t.disposalCosts).toFixed(),
      gainsBeforeLosses: t.gains.toFixed(), losses: t.losses.toFixed(),
    });
    const boxes = (f: Sa108Figures): FormBox[] => [
      { box: '13.1', label: 'Number of disposals', value: String(f.numberOfDisposals) },
      { box: '13.2', label: 'Disposal proceeds', value: wholePounds(f.disposalProceeds, 'down') },
      { box: '13.3', label: 'Allowable costs (including purchase price)', value: wholePounds(f.allowableCosts, 'up') },
      { box: '13.4', label: 'Gains in the year, before losses', value: wholePounds(f.gainsBeforeLosses, 'down') },
      { box: '13.5', label: 'Losses in the year', value: wholePounds(f.losses, 'up') },
    ];
    const whole = figures(this.all);
    const result: NonNullable<GainsSummary['sa108']> = {
      ...whole, boxes: boxes(whole), rounding: SA108_ROUNDING,
      source: 'HMRC SA108 capital gains summary, cryptoassets (boxes 13.2-13.5 as given by https://digital-assets.co.uk/answers/sa108-crypto-boxes/ for 2024-25 returns; 13.1 is the box before them; HMRC\'s SA108 notes were not in the sources read, check before filing). Proceeds gross, costs of disposal among the allowable costs: HMRC HS284 Example 3. Matching: CRYPTO22200 onwards.',
    };
    if (meta.from < UK_RATE_CHANGE_DAY && meta.to > UK_RATE_CHANGE_DAY) {
      result.periods = [
        { from: meta.from, to: UK_RATE_CHANGE_DAY, label: 'disposals before 30 October 2024 (10% / 20%)', t: totalsOf(this.runningPeriods.get('before')) },
        { from: UK_RATE_CHANGE_DAY, to: meta.to, label: 'disposals on or after 30 October 2024 (18% / 24%)', t: totalsOf(this.runningPeriods.get('after')) },
      ].map(({ t, ...p }) => { const f = figures(t); return { ...p, figures: f, boxes: boxes(f) }; });
    }
    return result;
  }

  private anlageSO(taxYear: number): NonNullable<GainsSummary['anlageSO']> {
    const t = this.classTotals('taxable');
    const e = this.classTotals('exempt');
    const net = t.gains.minus(t.losses);
    // § 23 Abs. 3 Satz 5 EStG: a Freigrenze, not an allowance. EUR 1,000 from 2024
    // (Wachstumschancengesetz), EUR 600 before; at or above it the whole amount is taxable.
    const limit = new GainsDecimal(taxYear >= 2024 ? 1000 : 600);
    const below = net.lt(limit);
    return {
      taxableGains: t.gains.toFixed(), taxableLosses: t.losses.toFixed(), net: net.toFixed(), exemptNet: e.gains.minus(e.losses).toFixed(),
      freigrenze: limit.toFixed(), belowFreigrenze: below, taxableAmount: below && net.gt(0) ? '0' : net.toFixed(),
      // The lines of the Anlage SO from 2023 for private sales of other assets (crypto): only the
      // sales held one year or less; Veräußerungspreis before the Werbungskosten (the fees).
      lines: [
        { line: '42', label: 'Bezeichnung des Wirtschaftsguts', value: 'Kryptowährungen' },
        { line: '44', label: 'Veräußerungspreis', value: t.proceeds.plus(t.disposalCosts).toFixed() },
        { line: '45', label: 'Anschaffungskosten', value: t.cost.toFixed() },
        { line: '46', label: 'Werbungskosten', value: t.disposalCosts.toFixed() },
        { line: '47', label: 'Gewinn / Verlust', value: net.toFixed() },
      ],
      source: '§ 23 Abs. 1 Satz 1 Nr. 2 and Abs. 3 Satz 5 EStG; the Freigrenze counts all private sales of the year, not only these. Lines 42-47 of the Anlage SO from 2023 as listed by t-online (https://www.t-online.de/finanzen/frag-t-online-ihr-geld/id_100542556/bitcoin-muessen-gewinne-versteuert-werden-.html) and Divly; the form itself was not in the sources read, check before filing.',
    };
  }

  // The totals as read (a running sum adds up what it holds once; reading it again costs nothing).
  private get all(): Totals { return totalsOf(this.running); }
  private classTotals(cls: string): Totals { return totalsOf(this.runningClasses.get(cls)); }

  /** Adds the open disposals to the totals (each one's gain or loss decided on all its parts). */
  private closeOpen(): void {
    for (const d of this.open.values()) {
      if (this.rules === 'uk') this.running.disposals++;
      const proceeds = sumOf(d.proceeds);
      const costs = sumOf(d.costs);
      const cost = sumOf(d.cost);
      const denied = sumOf(d.denied);
      const gain = d.denied.length === 0 ? proceeds.minus(cost) : proceeds.minus(cost).plus(denied);
      const targets = [this.running];
      if (this.rules === 'uk') {
        const period = d.day < UK_RATE_CHANGE_DAY ? 'before' : 'after';
        let p = this.runningPeriods.get(period);
        if (p === undefined) this.runningPeriods.set(period, p = running());
        p.disposals++;
        targets.push(p);
      }
      for (const t of targets) {
        t.proceeds.add(proceeds);
        if (d.costs.length > 0) t.disposalCosts.add(costs);
        t.cost.add(cost);
        if (d.denied.length > 0) t.deniedLosses.add(denied);
        if (gain.gte(0)) t.gains.add(gain); else t.losses.add(gain.neg());
      }
    }
    this.open.clear();
  }
}
