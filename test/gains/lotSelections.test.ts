import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLotSelections, readLotSelections } from '../../src/gains/lotSelections.js';
import { ruleSet } from '../../src/gains/ruleSets.js';
import { TradeledgerError } from '../../src/errors.js';
import type { GainsEvent, Match } from '../../src/gains/gainsEvent.js';
import { buy, run, sell } from './events.js';
import { tempFolder } from '../support/tempFolder.js';

// Treas. Reg. § 1.1012-1(j) (T.D. 10000, 89 FR 56480): units sold from a wallet take the basis and
// holding period of the units specifically identified no later than the sale; without an
// identification, first in, first out within that wallet. The cases below follow that rule:
//   2024-03-01  buy 1 BTC for 100 in wallet w1 (lot "old")
//   2025-02-01  buy 1 BTC for 300 in wallet w1 (lot "new")
//   2025-02-01  buy 1 BTC for 200 in wallet w2 (lot "other")
//   2025-04-01  sell 1 BTC from w1 for 250
// FIFO: the 2024 lot, cost 100, gain 150, long term (held more than a year).
// Identifying "new": cost 300, a loss of 50, short term: its own holding period.
const HEADER = 'disposal,lot,quantity';
const events = (): GainsEvent[] => [
  buy('2024-03-01', 'BTC', '1', '100', 'w1', 'spot_fills|old|base'),
  buy('2025-02-01', 'BTC', '1', '300', 'w1', 'spot_fills|new|base'),
  buy('2025-02-01', 'BTC', '1', '200', 'w2', 'spot_fills|other|base'),
  sell('2025-04-01', 'BTC', '1', '250', 'w1', 'spot_fills|sale|base'),
];
const us = ruleSet('us');
const view = (ms: Match[]) => ms.map((m) => [m.basis, m.acquisitionRef, m.quantity.toFixed(), m.cost.toFixed(), m.gain.toFixed(), us.classify(m)]);
const withFile = (body: string) => us.matcher('wallet', parseLotSelections('lots.csv', `${HEADER}\n${body}\n`));
const failure = (f: () => unknown): TradeledgerError => {
  try { f(); } catch (err) { if (err instanceof TradeledgerError) return err; throw err; }
  throw new Error('expected a TradeledgerError');
};

describe('US specific identification (Treas. Reg. 1.1012-1(j))', () => {
  it('without an identification the wallet is FIFO: the 2024 lot, long term', () => {
    expect(view(run(us.matcher('wallet'), events()))).toEqual([['fifo', 'spot_fills|old|base', '1', '100', '150', 'long']]);
  });

  it('an identified lot gives its own basis and holding period: the 2025 lot, a short-term loss', () => {
    const m = withFile('spot_fills|sale|base,spot_fills|new|base,1');
    expect(view(run(m, events()))).toEqual([['specific', 'spot_fills|new|base', '1', '300', '-50', 'short']]);
    // The FIFO lot is still held, with its cost.
    expect(m.holdings().filter((h) => h.pool === 'w1').map((h) => [h.ref, h.cost.toFixed()])).toEqual([['spot_fills|old|base', '100']]);
  });

  it('the part no selection names stays FIFO, and proceeds are shared by quantity', () => {
    const m = withFile('spot_fills|sale|base,spot_fills|new|base,0.25');
    expect(view(run(m, events()))).toEqual([
      ['specific', 'spot_fills|new|base', '0.25', '75', '-12.5', 'short'],
      ['fifo', 'spot_fills|old|base', '0.75', '75', '112.5', 'long'],
    ]);
  });

  it('a disposal can be named by local date, asset and quantity', () => {
    const m = withFile('2025-04-01 btc 1.0,spot_fills|new|base,1');
    expect(view(run(m, events()))[0]![1]).toBe('spot_fills|new|base');
  });

  it('a lot in another wallet cannot be identified (wallet by wallet): an error naming line and column', () => {
    const err = failure(() => run(withFile('spot_fills|sale|base,spot_fills|other|base,1'), events()));
    expect(err.message).toBe('lots.csv line 2 column 2 (lot): the lot spot_fills|other|base holds 0 BTC in wallet w1 when spot_fills|sale|base (2025-04-01) disposes, not 1');
    expect(err.hint).toContain('same wallet');
  });

  it('a lot acquired after the disposal cannot be identified for it', () => {
    const later = [...events(), buy('2025-05-01', 'BTC', '1', '400', 'w1', 'spot_fills|later|base')];
    const err = failure(() => run(withFile('spot_fills|sale|base,spot_fills|later|base,1'), later));
    expect(err.message).toContain('line 2 column 2 (lot): the lot spot_fills|later|base holds 0 BTC');
  });

  it('more units named than the disposal is an error on the disposal line', () => {
    const err = failure(() => run(withFile('spot_fills|sale|base,spot_fills|new|base,0.5\nspot_fills|sale|base,spot_fills|old|base,0.75'), events()));
    expect(err.message).toBe('lots.csv line 2 column 3 (quantity): the lots named for spot_fills|sale|base add up to 1.25 BTC, more than the 1 disposed of');
  });

  it('a date name that fits two disposals is refused', () => {
    const two = [...events(), sell('2025-04-01', 'BTC', '1', '250', 'w2', 'spot_fills|sale2|base')];
    const err = failure(() => run(withFile('2025-04-01 BTC 1,spot_fills|new|base,1'), two));
    expect(err.message).toBe('lots.csv line 2 column 1 (disposal): "2025-04-01 BTC 1" fits more than one disposal (another is spot_fills|sale2|base)');
  });

  it('reports the entries no disposal used', () => {
    const s = parseLotSelections('lots.csv', `${HEADER}\nspot_fills|sale|base,spot_fills|new|base,1\nspot_fills|nope|base,spot_fills|old|base,1\n`);
    run(us.matcher('wallet', s), events());
    expect(s.unused().map((e) => [e.line, e.name])).toEqual([[3, 'spot_fills|nope|base']]);
  });
});

describe('the lot-selection file is validated before use', () => {
  it.each([
    ['disposal,lots,qty\n', 'lots.csv line 1: the header is "disposal,lots,qty", expected "disposal,lot,quantity"'],
    [`${HEADER}\nspot_fills|s|base,spot_fills|b|base\n`, 'lots.csv line 2: has 2 fields, expected 3 (disposal,lot,quantity)'],
    [`${HEADER}\n\nspot_fills|s,spot_fills|b|base,1\n`, 'lots.csv line 3 column 1 (disposal): "spot_fills|s" is not a ledger row id source|source_id|leg'],
    [`${HEADER}\n2025-13-45 BTC 1,spot_fills|b|base,1\n`, 'lots.csv line 2 column 1 (disposal): "2025-13-45 BTC 1" is neither a ledger row id (source|source_id|leg) nor "YYYY-MM-DD ASSET QUANTITY"'],
    [`${HEADER}\nspot_fills|s|base,b1,1\n`, 'lots.csv line 2 column 2 (lot): "b1" is not a ledger row id source|source_id|leg'],
    [`${HEADER}\nspot_fills|s|base,spot_fills|b|base,-1\n`, 'lots.csv line 2 column 3 (quantity): "-1" is not a positive decimal quantity'],
    [`${HEADER}\nspot_fills|s|base,spot_fills|b|base,0\n`, 'lots.csv line 2 column 3 (quantity): "0" is not a positive decimal quantity'],
    [`${HEADER}\nspot_fills|s|base,spot_fills|b|base,1e3\n`, 'lots.csv line 2 column 3 (quantity): "1e3" is not a positive decimal quantity'],
    [`${HEADER}\nspot_fills|s|base,spot_fills|b|base,1\nspot_fills|s|base,spot_fills|b|base,2\n`, 'lots.csv line 3 column 2 (lot): the lot spot_fills|b|base is named twice for the disposal spot_fills|s|base'],
    [`${HEADER}\n"spot_fills|s|base",spot_fills|b|base,1\n`, 'lots.csv line 2: quoted fields are not supported'],
  ])('%#', (text, message) => {
    const err = failure(() => parseLotSelections('lots.csv', text));
    expect(err.message).toBe(message);
    expect(err.code).toBe('GAINS_LOTS_FILE');
    expect(err.kind).toBe('config');
  });

  it('a missing file is a config error naming it', async () => {
    const dir = tempFolder('lots-');
    await expect(readLotSelections(path.join(dir, 'none.csv'))).rejects.toThrow(`cannot read the lot-selection file ${path.join(dir, 'none.csv')}: no such file or folder (ENOENT)`);
    await writeFile(path.join(dir, 'ok.csv'), `\uFEFF${HEADER}\r\nspot_fills|s|base,spot_fills|b|base,1.5\r\n`);
    const s = await readLotSelections(path.join(dir, 'ok.csv'));
    expect(s.unused().map((e) => [e.line, e.lots.map((l) => l.quantity.toFixed())])).toEqual([[2, ['1.5']]]);
  });
});
