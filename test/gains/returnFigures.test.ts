import { describe, expect, it } from 'vitest';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import type { Disposal, GainsEvent, Matcher } from '../../src/gains/gainsEvent.js';
import { GainsSummaryBuilder } from '../../src/gains/gainsSummary.js';
import { gainsSummaryText } from '../../src/gains/gainsSummaryText.js';
import { ruleSet } from '../../src/gains/ruleSets.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';
import { australianNetCapitalGain, canadaTaxableCapitalGain, wholePounds } from '../../src/gains/returnFigures.js';
import { buy, run, sell } from './events.js';
import type { DemoNote } from '../../src/reports/demoAccounts.js';

const noDemo: DemoNote = { included: false, treatment: '', accounts: [] };

const d = (x: string) => new GainsDecimal(x);

/** A disposal whose proceeds are `gross` less `costs` (the fees), the costs kept as the ledger keeps them. */
function sellWithCosts(day: string, asset: string, quantity: string, gross: string, costs: string): Disposal {
  return { ...sell(day, asset, quantity, d(gross).minus(costs).toFixed()), costs: d(costs) };
}

/** Runs a rule set over events and adds up its matches of tax year `year`, as runGains does. */
function summarise(rules: RuleSetName, year: number, events: GainsEvent[], matcher: Matcher = ruleSet(rules).matcher('universal')) {
  const rs = ruleSet(rules);
  const { from, to } = rs.taxYear(year);
  const builder = new GainsSummaryBuilder(rules);
  for (const m of run(matcher, events)) if (m.disposedDay >= from && m.disposedDay < to) builder.add(m, rs.classify(m));
  return builder.result({ taxYear: year, from, to, tz: 'Europe/London', fiat: 'GBP', income: new Map(), holdings: [], dataQuality: {}, demo: noDemo });
}

describe('UK SA108: gross proceeds, costs of disposal among the allowable costs (HMRC HS284 Example 3)', () => {
  // HMRC, Shares and Capital Gains Tax (HS284), Example 3 (2024): gain for shares in a Section 104
  // holding, https://assets.publishing.service.gov.uk/media/65f993439316f5001164c2d7/HS284_Example_3_2024.pdf
  // The PDF's text was not among the stored sources this work could read; its figures are taken
  // from two independent public transcriptions found in stored source code, which agree:
  //  - a Python test suite (investir, "test_hmrc_example_section_104_disposal", citing the PDF):
  //    1 April 2015 buy 1,000 Lobster plc for £4,000 + £150 costs; 1 September 2018 buy 500 for
  //    £2,050 + £80; 1 May 2023 sell 700 for £3,360, costs £100: "cost: £3030.67, proceeds:
  //    £3360.0, gain: £329.33"; 1 February 2024 sell 400 for £2,080, costs £105: cost £1,779.67,
  //    gain £300.33; left in the pool: 400 shares, £1,674.67;
  //  - cgtcalculator.com's output for the same trades: "SELL: 700 LOBSTER on 01/05/2023 at £4.80
  //    gives GAIN of £329.00 ... Gain = £329.00 = ( 700 * 4.80 - 100.00 ) - ( 1500 * 4.18667 ) *
  //    ( 700 / 1500 )", and 629 for the tax year 2023-24.
  // The proceeds of the year are £3,360 + £2,080 = £5,440 (gross, as the issue states HMRC's
  // figure); the costs of each sale are part of its allowable cost (£3,030.67 = £2,930.67 from the
  // pool + £100), as the transcription of HMRC's example shows.
  const events = [
    buy('2015-04-01', 'LOBS', '1000', '4150'),
    buy('2018-09-01', 'LOBS', '500', '2130'),
    sellWithCosts('2023-05-01', 'LOBS', '700', '3360', '100'),
    sellWithCosts('2024-02-01', 'LOBS', '400', '2080', '105'),
  ];

  it('summary.json: 2 disposals, proceeds 5,440 exactly, allowable costs 4,810.33, gain 629.67 (exact)', () => {
    const s = summarise('uk', 2023, events);
    expect(s.sa108).toMatchObject({
      numberOfDisposals: 2,
      disposalProceeds: '5440',
      // (6,280 x 700 / 1,500 = 2,930.666666666667) + 100 + (3,349.333333333333 x 400 / 800 =
      // 1,674.6666666666665, half to even at 12 places: 1,674.666666666666) + 105
      allowableCosts: '4810.333333333333',
      gainsBeforeLosses: '629.666666666667',
      losses: '0',
    });
    // The per-sale figures of the transcription, to the penny.
    const matches = run(ruleSet('uk').matcher('universal'), events);
    expect(matches.map((m) => [m.disposedDay, m.cost.plus(m.disposalCosts ?? 0).toFixed(2), m.gain.toFixed(2)])).toEqual([
      ['2023-05-01', '3030.67', '329.33'],
      ['2024-02-01', '1779.67', '300.33'],
    ]);
  });

  it('summary.txt: whole pounds (proceeds and gains down, costs and losses up), with the box numbers and the rounding rule', () => {
    const s = summarise('uk', 2023, events);
    expect(s.sa108!.boxes).toEqual([
      { box: '13.1', label: 'Number of disposals', value: '2' },
      { box: '13.2', label: 'Disposal proceeds', value: '5440' },
      { box: '13.3', label: 'Allowable costs (including purchase price)', value: '4811' },
      { box: '13.4', label: 'Gains in the year, before losses', value: '629' },
      { box: '13.5', label: 'Losses in the year', value: '0' },
    ]);
    const text = gainsSummaryText(s);
    expect(text).toContain('box 13.2  Disposal proceeds                            GBP 5440');
    expect(text).toContain('Rounding: whole pounds: proceeds and gains rounded down (pence ignored), allowable costs and losses rounded up');
    expect(text).toMatch(/HS284 Example 3/);
    // The closing note once, not twice.
    expect(text.match(/summary\.json holds them exactly/g)).toHaveLength(1);
    expect(text).toContain('GBP figures here are rounded to 2 decimals, half up (the SA108 boxes to whole pounds, as stated)');
  });
});

describe('UK 2024-25: split at 30 October 2024 (Finance Act 2025 s. 7(3))', () => {
  // "The amendments made by this section and that Schedule have effect in relation to disposals
  // made on or after 30 October 2024." https://www.legislation.gov.uk/ukpga/2025/8/section/7
  it('a disposal on 29 October is before, one on 30 October (in the zone\'s date) is after', () => {
    const s = summarise('uk', 2024, [
      buy('2024-05-01', 'T', '10', '1000'),
      sellWithCosts('2024-10-29', 'T', '2', '300', '10'),
      sellWithCosts('2024-10-30', 'T', '3', '240', '6'),
      sellWithCosts('2025-01-10', 'T', '1', '150', '0'),
    ]);
    const [before, after] = s.sa108!.periods!;
    expect(before).toMatchObject({ from: '2024-04-06', to: '2024-10-30', figures: { numberOfDisposals: 1, disposalProceeds: '300', allowableCosts: '210', gainsBeforeLosses: '90', losses: '0' } });
    // 30 October: 240 - (300 + 6) = -66; 10 January: 150 - 100 = 50.
    expect(after).toMatchObject({ from: '2024-10-30', to: '2025-04-06', figures: { numberOfDisposals: 2, disposalProceeds: '390', allowableCosts: '406', gainsBeforeLosses: '50', losses: '66' } });
    expect(s.sa108).toMatchObject({ numberOfDisposals: 3, disposalProceeds: '690', allowableCosts: '616', gainsBeforeLosses: '140', losses: '66' });
    expect(gainsSummaryText(s)).toContain('of which disposals on or after 30 October 2024');
    // Other years have no split.
    expect(summarise('uk', 2025, [buy('2025-05-01', 'T', '1', '1'), sell('2025-06-01', 'T', '1', '2')]).sa108!.periods).toBeUndefined();
  });

  it('whole pounds: down for proceeds and gains, up for costs and losses', () => {
    expect(wholePounds('4810.99', 'down')).toBe('4810');
    expect(wholePounds('4810.01', 'up')).toBe('4811');
    expect(wholePounds('4810', 'up')).toBe('4810');
  });
});

describe('Australia: net capital gain (ATO)', () => {
  // ATO, Guide to capital gains tax 2002-03, "Example: Net capital gain-A":
  // "She deducted her $600 capital loss from her $520 capital gain (as this capital gain is not
  // eligible for the CGT discount because she owned the shares for less than 12 months) and the
  // remainder from her other $3,000 capital gain: $520 - $600 = -$80; $3,000 - $80 = $2,920 ...
  // the $400 prior year capital loss was deducted from the remaining $2,920: $2,920 - $400 =
  // $2,520. Kathleen applies the CGT discount by multiplying her capital gain by 50%: $2,520 x 50%
  // = $1,260. Kathleen shows $1,260 at A Net capital gain"
  // https://www.ato.gov.au/Forms/Guide-to-CGT-2002-03/?page=195
  it('Kathleen: losses first (non-discount gains first), then the 50% discount: $1,260', () => {
    const r = australianNetCapitalGain({ discountable: d('3000'), other: d('520'), losses: d('600'), priorLosses: d('400') });
    expect(r.netCapitalGain.toFixed()).toBe('1260');
    expect(r.lossesCarriedForward.toFixed()).toBe('0');
  });

  it('the run\'s summary carries it: a discount gain of 3,000 and a short-held one of 520 with a 600 loss', () => {
    const s = summarise('au', 2023, [
      buy('2022-01-03', 'X', '1', '1000'),
      buy('2023-08-01', 'Y', '1', '1000'),
      buy('2023-08-01', 'Z', '1', '1000'),
      sell('2023-09-01', 'X', '1', '4000'), // held over 12 months: discountable 3,000
      sell('2023-09-01', 'Y', '1', '1520'), // 520, no discount
      sell('2023-09-02', 'Z', '1', '400'), // a 600 loss
    ]);
    expect(s.cgtDiscount).toMatchObject({ discountableGains: '3000', otherGains: '520', losses: '600', totalCurrentYearGains: '3520', netCapitalGain: '1460' });
    const text = gainsSummaryText(s);
    expect(text).toContain('label A  Net capital gain');
    // No SA108 in an Australian summary, nor pennies in dollars.
    expect(text).toContain(`${s.fiat} figures here are rounded to 2 decimals, half up; summary.json`);
    expect(text).not.toMatch(/SA108|penny/);
  });
});

describe('Canada: taxable capital gain (CRA)', () => {
  // CRA, "Determining your taxable capital gains (or losses)": "you will multiply your total
  // capital gains (or losses) by the inclusion rate. The inclusion rate for 2023 is 50%. If you
  // have a taxable capital gain, transfer the amount to line 12700 of your return."
  it('gains less losses, times 50%; a negative result is a net capital loss', () => {
    expect(canadaTaxableCapitalGain(d('1000'), d('400')).taxableCapitalGain.toFixed()).toBe('300');
    const loss = canadaTaxableCapitalGain(d('100'), d('400'));
    expect([loss.taxableCapitalGain.toFixed(), loss.netCapitalLoss.toFixed()]).toEqual(['0', '150']);
  });
});

describe('Germany: Anlage SO', () => {
  // t-online (Dec 2024): "In der Anlage SO tragen Sie in den Zeilen 41 bis 46 ein, was Sie verkauft
  // haben (Zeile 42), wann Sie es angeschafft und verkauft haben (Zeile 43), den Verkaufspreis
  // (Zeile 44), die Anschaffungskosten (Zeile 45), die Werbungskosten im Zusammenhang mit dem
  // Veräußerungsgeschäft (Zeile 46) und den ermittelten Gewinn beziehungsweise Verlust (Zeile 47)."
  // https://www.t-online.de/finanzen/frag-t-online-ihr-geld/id_100542556/bitcoin-muessen-gewinne-versteuert-werden-.html
  it('a sale split into an exempt and a taxable part is one disposal; the taxable part fills lines 44-47', () => {
    const s = summarise('de', 2024, [
      buy('2023-01-02', 'BTC', '1', '100'), // held over a year on 1 June 2024: exempt
      buy('2024-03-01', 'BTC', '1', '200'), // taxable
      sellWithCosts('2024-06-01', 'BTC', '2', '500', '10'),
    ]);
    expect(s.total.disposals).toBe(1);
    expect(Object.keys(s.byClass).sort()).toEqual(['exempt', 'taxable']);
    expect(s.anlageSO!.lines).toEqual([
      { line: '42', label: 'Bezeichnung des Wirtschaftsguts', value: 'Kryptowährungen' },
      { line: '44', label: 'Veräußerungspreis', value: '250' },
      { line: '45', label: 'Anschaffungskosten', value: '200' },
      { line: '46', label: 'Werbungskosten', value: '5' },
      { line: '47', label: 'Gewinn / Verlust', value: '45' },
    ]);
    expect(s.anlageSO).toMatchObject({ exemptNet: '145', belowFreigrenze: true, taxableAmount: '0' });
    expect(gainsSummaryText(s)).toContain('Zeile 44  Veräußerungspreis');
  });
});

describe('the summary\'s totals over many disposals (added up in chunks, issue 24)', () => {
  // GainsSummaryBuilder keeps a run's values and adds them up 256 at a time (sumOf); the totals must
  // be exactly what adding every disposal one by one gives, across many chunks, gains and losses,
  // costs of disposal and both UK periods of 2024-25.
  const events: GainsEvent[] = [];
  for (let i = 0; i < 1500; i++) {
    const day = `2024-${String(4 + Math.floor(i / 200)).padStart(2, '0')}-${String(6 + (i % 20)).padStart(2, '0')}`;
    events.push(buy(day, `T${i % 7}`, '3', `${30 + (i % 11)}.${String(i % 97).padStart(2, '0')}`, 'a', `b${i}`));
    events.push({ ...sell(day, `T${i % 7}`, '2', `${20 + (i % 13)}.${String(i % 89).padStart(2, '0')}`, 'a', `s${i}`), costs: d(`0.${String(1 + (i % 9)).padStart(2, '0')}`) });
  }
  for (const rules of ['fifo', 'uk'] as const) {
    it(`${rules}: 1,500 disposals, every total equal to one-by-one sums of the matches`, () => {
      const rs = ruleSet(rules);
      const { from, to } = rs.taxYear(2024);
      const matches = run(rs.matcher('universal'), events).filter((m) => m.disposedDay >= from && m.disposedDay < to);
      const s = summarise(rules, 2024, events);
      // One disposal per sale (fifo), per asset and day (uk, CRYPTO22252), each gain or loss decided on all its parts.
      const byDisposal = new Map<string, { p: GainsDecimal; c: GainsDecimal; k: GainsDecimal; day: string }>();
      for (const m of matches) {
        const key = rules === 'uk' ? `${m.asset}|${m.disposedDay}` : m.disposalRef;
        const x = byDisposal.get(key) ?? { p: d('0'), c: d('0'), k: d('0'), day: m.disposedDay };
        byDisposal.set(key, { p: x.p.plus(m.proceeds), c: x.c.plus(m.cost), k: x.k.plus(m.disposalCosts ?? 0), day: x.day });
      }
      let proceeds = d('0'); let cost = d('0'); let costs = d('0'); let gains = d('0'); let losses = d('0');
      for (const x of byDisposal.values()) {
        proceeds = proceeds.plus(x.p); cost = cost.plus(x.c); costs = costs.plus(x.k);
        const g = x.p.minus(x.c);
        if (g.gte(0)) gains = gains.plus(g); else losses = losses.minus(g);
      }
      expect(byDisposal.size).toBeGreaterThan(600);
      expect(losses.gt(0) && gains.gt(0)).toBe(true);
      expect(s.total).toMatchObject({
        disposals: byDisposal.size, proceeds: proceeds.toFixed(), cost: cost.toFixed(), disposalCosts: costs.toFixed(), gains: gains.toFixed(), losses: losses.toFixed(),
      });
      expect(s.matches).toBe(matches.length);
      const rows = Object.values(s.byClass).reduce((n, c) => n + c.rows, 0);
      expect(rows).toBe(matches.length);
      const classProceeds = Object.values(s.byClass).reduce((n, c) => n.plus(c.proceeds), d('0'));
      expect(classProceeds.toFixed()).toBe(proceeds.toFixed());
      if (rules === 'uk') {
        const [before, after] = s.sa108!.periods!;
        expect(before!.figures.numberOfDisposals + after!.figures.numberOfDisposals).toBe(byDisposal.size);
        expect(d(before!.figures.disposalProceeds).plus(after!.figures.disposalProceeds).toFixed()).toBe(proceeds.plus(costs).toFixed());
        expect(before!.figures.numberOfDisposals).toBeGreaterThan(256);
      }
    });
  }
});
