import { describe, expect, it } from 'vitest';
import { lotMatcher, TRANSIT } from '../../src/gains/lotMatcher.js';
import { ruleSet } from '../../src/gains/ruleSets.js';
import type { GainsEvent, Match } from '../../src/gains/gainsEvent.js';
import { buy, move, run, sell } from './events.js';

// A hand-computed multi-lot example with fees. Fees go into the cost of an acquisition and come
// off the proceeds of a disposal (docs/gains.md, "Fees"):
//   10 Jan  buy 1 BTC at 100, fee 1   -> lot 1: 1 BTC, cost 101 (101 each)
//   10 Feb  buy 2 BTC at 150, fee 2   -> lot 2: 2 BTC, cost 302 (151 each)
//   10 Mar  buy 1 BTC at 130, fee 1   -> lot 3: 1 BTC, cost 131 (131 each)
//   10 Apr  sell 2.5 BTC at 200, fee 5 -> proceeds 495
// FIFO:    lot 1 + 1.5 of lot 2 = 101 + 226.5 = 327.5, gain 167.5
// LIFO:    lot 3 + 1.5 of lot 2 = 131 + 226.5 = 357.5, gain 137.5
// HIFO:    lot 2 (151) + 0.5 of lot 3 (131) = 302 + 65.5 = 367.5, gain 127.5
// average: 534 / 4 = 133.5 each, x 2.5 = 333.75, gain 161.25
const trades = (): GainsEvent[] => [
  buy('2024-01-10', 'BTC', '1', String(1 * 100 + 1)),
  buy('2024-02-10', 'BTC', '2', String(2 * 150 + 2)),
  buy('2024-03-10', 'BTC', '1', String(1 * 130 + 1)),
  sell('2024-04-10', 'BTC', '2.5', String(2.5 * 200 - 5)),
];
const totals = (ms: Match[]) => ({
  cost: ms.reduce((s, m) => s.plus(m.cost), ms[0]!.cost.minus(ms[0]!.cost)).toFixed(),
  gain: ms.reduce((s, m) => s.plus(m.gain), ms[0]!.gain.minus(ms[0]!.gain)).toFixed(),
  proceeds: ms.reduce((s, m) => s.plus(m.proceeds), ms[0]!.gain.minus(ms[0]!.gain)).toFixed(),
});

describe('FIFO, LIFO, HIFO and average cost on a hand-computed example with fees', () => {
  it.each([
    ['fifo', '327.5', '167.5', [['2024-01-10', '1'], ['2024-02-10', '1.5']]],
    ['lifo', '357.5', '137.5', [['2024-03-10', '1'], ['2024-02-10', '1.5']]],
    ['hifo', '367.5', '127.5', [['2024-02-10', '2'], ['2024-03-10', '0.5']]],
    ['average', '333.75', '161.25', [[null, '2.5']]],
  ] as const)('%s', (method, cost, gain, lots) => {
    const m = lotMatcher({ method, pools: 'universal' });
    const ms = run(m, trades());
    expect(totals(ms)).toEqual({ cost, gain, proceeds: '495' });
    expect(ms.map((x) => [x.acquiredDay, x.quantity.toFixed()])).toEqual(lots);
    // What was paid = cost matched + cost still held.
    const held = m.holdings().reduce((s, h) => s.plus(h.cost), ms[0]!.cost.minus(ms[0]!.cost));
    expect(held.plus(cost).toFixed()).toBe('534');
  });

  it('Canada (adjusted cost base) is the average cost of all identical units', () => {
    const ms = run(ruleSet('ca').matcher('universal'), trades());
    expect(totals(ms)).toEqual({ cost: '333.75', gain: '161.25', proceeds: '495' });
  });
});

describe('holding periods', () => {
  const classes = (name: Parameters<typeof ruleSet>[0], bought: string, sold: string) => {
    const rules = ruleSet(name);
    return run(rules.matcher('universal'), [buy(bought, 'ETH', '1', '10'), sell(sold, 'ETH', '1', '20')]).map((m) => rules.classify(m));
  };

  it('US: held exactly one year is short term, one year and a day is long term (IRS Pub. 544)', () => {
    expect(classes('us', '2023-06-15', '2024-06-15')).toEqual(['short']);
    expect(classes('us', '2023-06-15', '2024-06-16')).toEqual(['long']);
  });

  it('Germany: sold exactly one year after purchase is taxable, one year and a day later exempt (§ 23 EStG)', () => {
    expect(classes('de', '2024-01-15', '2025-01-15')).toEqual(['taxable']);
    expect(classes('de', '2024-01-15', '2025-01-16')).toEqual(['exempt']);
  });

  it("Australia: the ATO's example, acquired 2 February 2001, discount from 3 February 2002", () => {
    expect(classes('au', '2001-02-02', '2002-02-02')).toEqual(['no-discount']);
    expect(classes('au', '2001-02-02', '2002-02-03')).toEqual(['discount']);
  });
});

describe('pools per wallet', () => {
  it('a disposal takes lots of its own wallet only; an own-account move carries lots with their dates', () => {
    const m = lotMatcher({ method: 'fifo', pools: 'wallet' });
    const ms = run(m, [
      buy('2024-01-01', 'SOL', '1', '10', 'a'),
      buy('2024-02-01', 'SOL', '1', '20', 'b'),
      sell('2024-03-01', 'SOL', '1', '30', 'b'),
      move('2024-03-02', 'SOL', '1', 'a', 'b'),
      sell('2024-03-03', 'SOL', '1', '30', 'b'),
    ]);
    expect(ms.map((x) => [x.pool, x.acquiredDay, x.cost.toFixed()])).toEqual([['b', '2024-02-01', '20'], ['b', '2024-01-01', '10']]);
    expect(m.holdings()).toEqual([]);
  });

  it('US: one universal FIFO pool before 2025, then the open lots go to the wallets holding the coins (Rev. Proc. 2024-28)', () => {
    const m = ruleSet('us').matcher('universal');
    const ms = run(m, [
      buy('2024-01-01', 'BTC', '1', '100', 'a'),
      buy('2024-06-01', 'BTC', '1', '200', 'b'),
      sell('2024-09-01', 'BTC', '1', '300', 'b'),
      sell('2025-02-01', 'BTC', '1', '300', 'a'),
    ]);
    // 2024: universal FIFO takes wallet a's January lot for a sale from wallet b.
    // 2025: wallet a holds the one coin left, so it gets the one open lot (June, 200).
    expect(ms.map((x) => [x.disposedDay, x.pool, x.acquiredDay, x.cost.toFixed()])).toEqual([
      ['2024-09-01', '*', '2024-01-01', '100'],
      ['2025-02-01', 'a', '2024-06-01', '200'],
    ]);
  });

  it('a disposal beyond the lots held is matched as far as it goes, the rest at no cost', () => {
    const ms = run(lotMatcher({ method: 'fifo', pools: 'universal' }), [buy('2024-01-01', 'X', '1', '5'), sell('2024-01-02', 'X', '3', '30')]);
    expect(ms.map((x) => [x.basis, x.quantity.toFixed(), x.proceeds.toFixed(), x.cost.toFixed()])).toEqual([['fifo', '1', '10', '5'], ['no-cost', '2', '20', '0']]);
  });
});

describe('tax years', () => {
  it('UK runs 6 April to 5 April, Australia 1 July to 30 June, the others the calendar year', () => {
    expect(ruleSet('uk').taxYear(2025)).toEqual({ from: '2025-04-06', to: '2026-04-06' });
    expect(ruleSet('au').taxYear(2025)).toEqual({ from: '2025-07-01', to: '2026-07-01' });
    expect(ruleSet('us').taxYear(2025)).toEqual({ from: '2025-01-01', to: '2026-01-01' });
    expect(ruleSet('de').taxYear(2025)).toEqual({ from: '2025-01-01', to: '2026-01-01' });
  });
});

// Rev. Proc. 2024-28 (IRB 2024-31, https://www.irs.gov/irb/2024-31_irb): from 1 January 2025 basis
// is tracked wallet by wallet (Treas. Reg. 1.1012-1(j)); the unused basis of the units held then is
// allocated to the wallets, by a "specific unit allocation" or a "global allocation" written as a
// rule (camusocpa.com's summary: "Allocation methods include specific unit allocation—assigning
// basis to individual digital asset units—and global allocation, which uses a written rule to
// allocate basis across wallets"). tradeledger's written rule follows the coins (docs/gains.md).
describe('US: the allocation at the 2025 switch follows the coins, not the wallet names', () => {
  // The case: wallet A buys 1 XBT 2024-06-01 for 20,000 and sells it 2025-03-01 for
  // 30,000; wallet B bought 1 XBT 2024-01-10 for 10,000. A holds the June coin, so it sells that:
  // gain 10,000, short term, whatever the wallets are called.
  const history = (a: string, b: string) => [
    buy('2024-01-10', 'XBT', '1', '10000', b, 'b-jan'),
    buy('2024-06-01', 'XBT', '1', '20000', a, 'a-jun'),
    sell('2025-03-01', 'XBT', '1', '30000', a),
  ];
  const result = (a: string, b: string) => {
    const m = ruleSet('us').matcher('universal');
    const ms = run(m, history(a, b));
    return {
      sold: ms.map((x) => [x.pool === a ? 'A' : x.pool, x.acquiredDay, x.gain.toFixed(), ruleSet('us').classify(x)]),
      held: m.holdings().map((h) => [h.pool === b ? 'B' : h.pool, h.acquiredDay, h.cost.toFixed()]),
    };
  };

  it('named a/b and z/b: the same gain (10,000, short term), B keeps its January lot', () => {
    const expected = { sold: [['A', '2024-06-01', '10000', 'short']], held: [['B', '2024-01-10', '10000']] };
    expect(result('a', 'b')).toEqual(expected);
    expect(result('z', 'b')).toEqual(expected);
  });

  it('units moved between own wallets before 2025 take their lot with them', () => {
    const m = ruleSet('us').matcher('universal');
    const ms = run(m, [
      buy('2024-01-10', 'XBT', '1', '10000', 'y'),
      buy('2024-06-01', 'XBT', '1', '20000', 'x'),
      move('2024-07-01', 'XBT', '1', 'y', 'x'), // the January coin joins x
      move('2024-08-01', 'XBT', '1', 'x', 'w'), // x's oldest coin (January) moves on to w
      sell('2025-03-01', 'XBT', '1', '30000', 'w'),
    ]);
    expect(ms.map((x) => [x.pool, x.acquiredDay, x.gain.toFixed()])).toEqual([['w', '2024-01-10', '20000']]);
    expect(m.holdings().map((h) => [h.pool, h.acquiredDay])).toEqual([['x', '2024-06-01']]);
  });
});

// A futures or margin wallet records only its own side of a transfer from spot (ledgerEvents.ts):
// spot -> TRANSIT and TRANSIT -> futures. Rows of one millisecond are ordered by source, so the
// futures side can come first. Either order must carry the lots (their dates and costs) across.
describe('one-sided transfers through TRANSIT, in either order', () => {
  const ms = Date.parse('2025-03-01T00:00:00Z');
  const at = <T extends GainsEvent>(e: T, ts: number): T => ({ ...e, ts });
  const history = (receiverFirst: boolean): GainsEvent[] => {
    const out = at(move('2025-03-01', 'USDT', '100', 'spot', TRANSIT), ms);
    const into = at(move('2025-03-01', 'USDT', '100', TRANSIT, 'futures'), ms);
    return [
      buy('2025-02-01', 'USDT', '100', '100', 'spot'),
      ...(receiverFirst ? [into, out] : [out, into]),
      sell('2025-04-01', 'USDT', '40', '40', 'futures'),
    ];
  };
  it.each([[false], [true]])('receiver first: %s', (receiverFirst) => {
    for (const m of [lotMatcher({ method: 'fifo', pools: 'wallet' }), ruleSet('us').matcher('rules' as never)]) {
      const got = run(m, history(receiverFirst));
      expect(got.map((x) => [x.basis, x.quantity.toFixed(), x.cost.toFixed(), x.acquiredDay])).toEqual([['fifo', '40', '40', '2025-02-01']]);
      expect(m.holdings().map((h) => [h.pool, h.quantity.toFixed()])).toEqual([['futures', '60']]);
    }
  });
  it('before the US switch to wallets (2024), the units follow too', () => {
    const m = ruleSet('us').matcher('rules' as never);
    const events = history(true).map((e) => ({ ...e, day: e.day.replace('2025-0', '2024-1') }));
    events.push(sell('2025-02-01', 'USDT', '50', '50', 'futures'));
    const got = run(m, events);
    // 40 sold in 2024 from the universal pool; at the switch the remaining 60 units sit in futures.
    expect(got.at(-1)!.basis).toBe('fifo');
    expect(m.holdings().map((h) => [h.pool, h.quantity.toFixed()])).toEqual([['futures', '10']]);
  });
});
