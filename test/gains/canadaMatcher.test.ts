import { describe, expect, it } from 'vitest';
import { canadaMatcher } from '../../src/gains/canadaMatcher.js';
import { GainsSummaryBuilder } from '../../src/gains/gainsSummary.js';
import { buy, run, sell } from './events.js';
import type { DemoNote } from '../../src/reports/demoAccounts.js';

const noDemo: DemoNote = { included: false, treatment: '', accounts: [] };

// Income Tax Act (Canada) s. 54, "superficial loss": "the taxpayer's loss from the disposition of
// a particular property where (a) during the period that begins 30 days before and ends 30 days
// after the disposition, the taxpayer or a person affiliated with the taxpayer acquires a property
// (in this definition referred to as the 'substituted property') that is, or is identical to, the
// particular property, and (b) at the end of that period, the taxpayer or a person affiliated with
// the taxpayer owns or had a right to acquire the substituted property" (quoted by the CRA in
// 2021-0896031C6, https://taxinterpretations.com/node/643644). "subparagraph 40(2)(g)(i) of the
// Act provides that a taxpayer's loss from the disposition of property is nil to the extent that
// it is a 'superficial loss' ... the denied loss can generally be added to the adjusted cost base
// of the same or identical property pursuant to paragraph 53(1)(f)" (CRA 2005-0150811E5,
// https://taxinterpretations.com/cra/severed-letters/2005-0150811e5). CRA, "Superficial loss"
// (canada.ca): "you cannot deduct it when you calculate your income for the year. However, if you
// are the person who acquires the substituted property, you can usually add the amount of the
// superficial loss to the adjusted cost base of the substituted property."
describe('Canada: superficial losses (ITA s. 54, 40(2)(g)(i), 53(1)(f))', () => {
  it('the issue\'s case: buy 10 for 1,000, sell all for 500, buy 10 back 14 days later for 600: loss 0, cost base 1,100', () => {
    const m = canadaMatcher();
    const matches = run(m, [
      buy('2024-03-01', 'BTC', '10', '1000'),
      sell('2024-05-01', 'BTC', '10', '500'),
      buy('2024-05-15', 'BTC', '10', '600'),
    ]);
    expect(matches.map((x) => [x.proceeds.toFixed(), x.cost.toFixed(), x.gain.toFixed(), x.deniedLoss?.toFixed()])).toEqual([['500', '1000', '0', '500']]);
    expect(m.holdings().map((h) => [h.quantity.toFixed(), h.cost.toFixed()])).toEqual([['10', '1100']]);
  });

  it('CRA 2004-0073011E5: 50 of 60 sold at a loss, 10 bought in the 30 days before and 10 after, 20 held at the end: the loss on 20 shares is superficial', () => {
    // "A taxpayer who owns 60 shares of a corporation disposes of 50 shares at a loss. Of the 60
    // shares owned at the time of the disposition, 10 shares were acquired during a period of 30
    // days before the disposition. Moreover, another 10 shares were acquired during a period of 30
    // days after the disposition such that the taxpayer owns 20 shares of that corporation at the
    // end of that period. ... Position: The loss on the disposition of 20 shares will be considered
    // a 'superficial loss'." https://taxinterpretations.com/cra/severed-letters/2004-0073011e5
    // Prices are ours: 50 at 100 long before, 10 at 100 on 10 June, 50 sold at 50 on 20 June (a
    // loss of 2,500 at an ACB of 100), 10 bought at 50 on 1 July.
    const m = canadaMatcher();
    const matches = run(m, [
      buy('2003-01-02', 'X', '50', '5000'),
      buy('2003-06-10', 'X', '10', '1000'),
      sell('2003-06-20', 'X', '50', '2500'),
      buy('2003-07-01', 'X', '10', '500'),
    ]);
    // 20 / 50 of the 2,500 loss is denied: 1,000; 1,500 stays a loss.
    expect(matches.map((x) => [x.cost.toFixed(), x.gain.toFixed(), x.deniedLoss?.toFixed()])).toEqual([['5000', '-1500', '1000']]);
    // 53(1)(f): the 20 held cost 10 x 100 + 500 + the 1,000 denied.
    expect(m.holdings().map((h) => [h.quantity.toFixed(), h.cost.toFixed()])).toEqual([['20', '2500']]);
  });

  it('day 30 after counts, day 31 does not; nothing held at the end of the period, nothing denied', () => {
    const day30 = run(canadaMatcher(), [buy('2024-01-01', 'E', '1', '100'), sell('2024-03-01', 'E', '1', '40'), buy('2024-03-31', 'E', '1', '50')]);
    expect(day30[0]!.deniedLoss?.toFixed()).toBe('60');
    const day31 = run(canadaMatcher(), [buy('2024-01-01', 'E', '1', '100'), sell('2024-03-01', 'E', '1', '40'), buy('2024-04-01', 'E', '1', '50')]);
    expect([day31[0]!.gain.toFixed(), day31[0]!.deniedLoss]).toEqual(['-60', undefined]);
    // Bought back within the 30 days and sold again before they end: (b) is not met.
    const gone = run(canadaMatcher(), [buy('2024-01-01', 'E', '1', '100'), sell('2024-03-01', 'E', '1', '40'), buy('2024-03-10', 'E', '1', '50'), sell('2024-03-20', 'E', '1', '55')]);
    expect(gone.map((x) => [x.disposedDay, x.gain.toFixed(), x.deniedLoss?.toFixed()])).toEqual([['2024-03-01', '-60', undefined], ['2024-03-20', '5', undefined]]);
    // A gain is never touched.
    const gain = run(canadaMatcher(), [buy('2024-01-01', 'E', '1', '100'), sell('2024-03-01', 'E', '1', '140'), buy('2024-03-02', 'E', '1', '150')]);
    expect([gain[0]!.gain.toFixed(), gain[0]!.deniedLoss]).toEqual(['40', undefined]);
  });

  it('the summary: Schedule 3 columns, the superficial loss, and the taxable capital gain at the 50% inclusion rate', () => {
    const b = new GainsSummaryBuilder('ca');
    for (const x of run(canadaMatcher(), [
      buy('2024-01-02', 'A', '2', '1000'),
      sell('2024-02-01', 'A', '1', '900'), // gain 400
      buy('2024-03-01', 'B', '10', '1000'),
      sell('2024-05-01', 'B', '10', '500'),
      buy('2024-05-15', 'B', '10', '600'), // the loss of 500 is denied
    ])) b.add(x, 'acb');
    const s = b.result({ taxYear: 2024, from: '2024-01-01', to: '2025-01-01', tz: 'America/Toronto', fiat: 'CAD', income: new Map(), holdings: [], dataQuality: {}, demo: noDemo });
    expect(s.schedule3).toMatchObject({ proceeds: '1400', adjustedCostBase: '1500', gains: '400', losses: '0', superficialLossesDenied: '500', net: '400', inclusionRate: '0.5', taxableCapitalGain: '200' });
  });
});
