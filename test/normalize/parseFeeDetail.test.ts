import { describe, expect, it } from 'vitest';
import { parseFeeDetail } from '../../src/normalize/parseFeeDetail.js';
import { ExactDecimal } from '../../src/normalize/decimal.js';
import type { FeeRow } from '../../src/normalize/feeRow.js';

// The figures the assertions check: coin, paid, platformDeducted, couponCovered, payableInReceivedCoin, rebate.
function figures(rows: FeeRow[]) {
  return rows.map((r) => [r.coin, r.paid, r.platformDeducted, r.couponCovered, r.payableInReceivedCoin, r.rebate]);
}

describe('parseFeeDetail: newFees {c, d, r, t}', () => {
  it('no deduction, real-response style (r repeats t): the whole fee is paid in the received coin', () => {
    // Buy BTC: t = -0.0000012 BTC, nothing deducted, no coupon -> paid = |t| - |c| = 0.0000012 BTC.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"deduction":false,"r":-0.0000012,"t":-0.0000012,"totalDeductionFee":0}}', { receivedCoin: 'BTC' });
    expect(out.problems).toEqual([]);
    expect(out.format).toBe('new');
    expect(figures(out.rows)).toEqual([['BTC', '0.0000012', '0', '0', '0.0000012', false]]);
    expect(out.rows[0]?.raw).toMatchObject({ 'newFees.t': '-0.0000012', 'newFees.r': '-0.0000012' });
  });

  it('no deduction, spec style (r = 0) gives the same row', () => {
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":-0.0000012}}', { receivedCoin: 'BTC' });
    expect(figures(out.rows)).toEqual([['BTC', '0.0000012', '0', '0', '0.0000012', false]]);
  });

  it('platform coin with enough balance: the fee is paid entirely in BGB (d)', () => {
    // Sell BTC for USDT: t = 0.5 USDT payable, settled as d = 0.0416 BGB, r = 0 -> one BGB row.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":-0.0416,"r":0,"t":-0.5}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([['BGB', '0.0416', '0.0416', '0', '0.5', false]]);
    expect(out.rows[0]?.receivedCoin).toBe('USDT');
  });

  it('platform coin with insufficient balance: part in BGB (d), remainder r in the received coin', () => {
    // t = 0.5 USDT; the BGB balance covered 0.3 USDT worth = 0.025 BGB; r = 0.2 USDT paid in USDT.
    // Rows: USDT paid 0.2 (carrying t = 0.5), BGB paid 0.025.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":-0.025,"r":-0.2,"t":-0.5}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([
      ['USDT', '0.2', '0', '0', '0.5', false],
      ['BGB', '0.025', '0.025', '0', '0', false],
    ]);
  });

  it('coupon covering part, no deduction: paid = t - c', () => {
    // t = 0.5, c = 0.1 -> 0.5 - 0.1 = 0.4 USDT paid; real data repeats 0.4 in r, the spec's reading leaves r = 0.
    for (const r of ['-0.4', '0']) {
      const out = parseFeeDetail(`{"newFees":{"c":-0.1,"d":0,"r":${r},"t":-0.5}}`, { receivedCoin: 'USDT' });
      expect(figures(out.rows)).toEqual([['USDT', '0.4', '0', '0.1', '0.5', false]]);
    }
  });

  it('coupon, deduction and remainder together', () => {
    // t = 1 USDT = c 0.2 + d (0.04 BGB, worth 0.5) + r 0.3 -> USDT paid 0.3, BGB paid 0.04.
    const out = parseFeeDetail('{"newFees":{"c":-0.2,"d":-0.04,"r":-0.3,"t":-1}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([
      ['USDT', '0.3', '0', '0.2', '1', false],
      ['BGB', '0.04', '0.04', '0', '0', false],
    ]);
  });

  it('a coupon covering the whole fee leaves a zero-paid row that keeps the coupon', () => {
    // t = 0.5, c = 0.5 -> paid 0.5 - 0.5 = 0.
    const out = parseFeeDetail('{"newFees":{"c":-0.5,"d":0,"r":0,"t":-0.5}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([['USDT', '0', '0', '0.5', '0.5', false]]);
  });

  it('exponent notation never goes through a float', () => {
    // -8.9E-8 = -0.000000089; 1.23456789012345678901E-3 keeps all 21 significant digits.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":-8.9E-8,"t":-8.9E-8}}', { receivedCoin: 'BTC' });
    expect(out.rows[0]?.paid).toBe('0.000000089');
    expect(out.rows[0]?.raw['newFees.t']).toBe('-8.9E-8');
    const long = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":-1.23456789012345678901E-3}}', { receivedCoin: 'BTC' });
    expect(long.rows[0]?.paid).toBe('0.00123456789012345678901');
  });

  it('signs: a positive platform deduction is still a charge', () => {
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0.0416,"r":0,"t":-0.5}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([['BGB', '0.0416', '0.0416', '0', '0.5', false]]);
  });

  it('a maker rebate (positive t, nothing deducted) is a negative paid', () => {
    // t = +0.0012 USDT with the default positiveFeeIs = 'rebate' -> paid = -0.0012, rebate.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":0.0012}}', { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([['USDT', '-0.0012', '0', '0', '-0.0012', true]]);
  });

  it("positiveFeeIs: 'charge' flips the reading of the received-coin sign only", () => {
    const charge = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":0.0012}}', { receivedCoin: 'USDT', positiveFeeIs: 'charge' });
    expect(figures(charge.rows)).toEqual([['USDT', '0.0012', '0', '0', '0.0012', false]]);
    const rebate = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":-0.0012}}', { receivedCoin: 'USDT', positiveFeeIs: 'charge' });
    expect(rebate.rows[0]?.paid).toBe('-0.0012');
  });

  it('buying the platform coin merges d and r into one BGB row', () => {
    // Buy BGB: t = 0.05 BGB, d = 0.03 BGB, r = 0.02 BGB -> one row paid 0.03 + 0.02 = 0.05.
    const out = parseFeeDetail('{"newFees":{"c":0,"d":-0.03,"r":-0.02,"t":-0.05}}', { receivedCoin: 'BGB' });
    expect(figures(out.rows)).toEqual([['BGB', '0.05', '0.03', '0', '0.05', false]]);
  });

  it('a zero fee gives no rows and no problem', () => {
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":0}}', { receivedCoin: 'USDT' });
    expect(out).toEqual({ rows: [], format: 'new', problems: [] });
  });

  it('the platform coin is configurable', () => {
    const out = parseFeeDetail('{"newFees":{"c":0,"d":-2,"r":0,"t":-0.5}}', { receivedCoin: 'USDT', platformCoin: 'XPC' });
    expect(out.rows.map((r) => r.coin)).toEqual(['XPC']);
  });
});

describe('parseFeeDetail: legacy per-coin object', () => {
  it('deduction in the platform coin: paid is totalDeductionFee in BGB, totalFee is the payable in the received coin', () => {
    const out = parseFeeDetail('{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":-0.0416,"totalFee":-0.5}}', { receivedCoin: 'USDT' });
    expect(out.format).toBe('legacy');
    expect(figures(out.rows)).toEqual([['BGB', '0.0416', '0.0416', '0', '0.5', false]]);
    expect(out.rows[0]?.receivedCoin).toBe('USDT');
  });

  it('no deduction: paid is totalFee in the fee coin', () => {
    // -0.1120000000 -> 0.112 USDT.
    const out = parseFeeDetail('{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0,"totalFee":-0.1120000000}}');
    expect(figures(out.rows)).toEqual([['USDT', '0.112', '0', '0', '0.112', false]]);
    expect(out.rows[0]?.raw).toEqual({ 'USDT.totalDeductionFee': '0', 'USDT.totalFee': '-0.1120000000' });
  });

  it('the fee coin is feeCoinCode even when the key differs (official examples)', () => {
    const out = parseFeeDetail('{"BTC":{"deduction":"no","feeCoinCode":"USDT","totalDeductionFee":"0","totalFee":"-0.25"}}');
    expect(figures(out.rows)).toEqual([['USDT', '0.25', '0', '0', '0.25', false]]);
  });

  it('the old variant nesting newFees inside a coin object counts newFees once', () => {
    // Both copies say 0.0416 BGB; counting the sibling legacy fields too would give 0.0832.
    const text = '{"USDT":{"newFees":{"c":0,"d":-0.0416,"r":0,"t":-0.5},"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":-0.0416,"totalFee":-0.5}}';
    const out = parseFeeDetail(text, { receivedCoin: 'USDT' });
    expect(out.format).toBe('new');
    expect(figures(out.rows)).toEqual([['BGB', '0.0416', '0.0416', '0', '0.5', false]]);
  });

  it('top-level newFees beside a legacy key: the legacy key repeats the fee and is not added', () => {
    const text = '{"newFees":{"c":0,"d":0,"deduction":false,"r":-0.112,"t":-0.112,"totalDeductionFee":0},"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0,"totalFee":-0.1120000000}}';
    const out = parseFeeDetail(text, { receivedCoin: 'USDT' });
    expect(figures(out.rows)).toEqual([['USDT', '0.112', '0', '0', '0.112', false]]);
  });

  it('a platform-coin deduction whose coin is not the platform coin is flagged, naming the setting', () => {
    const out = parseFeeDetail('{"USDT":{"deduction":true,"feeCoinCode":"USDT","totalDeductionFee":-1,"totalFee":-1}}');
    expect(out.rows).toEqual([]);
    expect(out.problems.join()).toMatch(/platformCoin setting/);
  });
});

describe('parseFeeDetail: fill forms', () => {
  it('spot fill object with BGB deduction, negative and positive wire signs', () => {
    for (const sign of ['-', '']) {
      const out = parseFeeDetail({ deduction: 'yes', feeCoin: 'BGB', totalDeductionFee: `${sign}0.017118519726`, totalFee: `${sign}0.017118519726` });
      expect(out.format).toBe('fill-object');
      expect(figures(out.rows)).toEqual([['BGB', '0.017118519726', '0.017118519726', '0', '0.017118519726', false]]);
    }
  });

  it('spot fill object without deduction, a maker rebate, and the platform coin as received coin', () => {
    const charge = parseFeeDetail({ deduction: 'no', feeCoin: 'BTC', totalDeductionFee: '0', totalFee: '-0.00000102' });
    expect(figures(charge.rows)).toEqual([['BTC', '0.00000102', '0', '0', '0.00000102', false]]);
    const rebate = parseFeeDetail({ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '', totalFee: '0.0035' });
    expect(figures(rebate.rows)).toEqual([['USDT', '-0.0035', '0', '0', '-0.0035', true]]);
    // Buying BGB without a deduction: BGB is the received coin, so the sign rule applies to it too.
    const bgbRebate = parseFeeDetail({ deduction: 'no', feeCoin: 'BGB', totalDeductionFee: '', totalFee: '0.02' });
    expect(figures(bgbRebate.rows)).toEqual([['BGB', '-0.02', '0', '0', '-0.02', true]]);
    const bgbCharge = parseFeeDetail({ deduction: 'no', feeCoin: 'BGB', totalDeductionFee: '', totalFee: '-0.02' });
    expect(figures(bgbCharge.rows)).toEqual([['BGB', '0.02', '0', '0', '0.02', false]]);
  });

  it('futures fill array: elements of one coin merge, other coins get their own row', () => {
    // USDT: 0.06 + 0.0012 = 0.0612; BGB: 0.005 deducted.
    const out = parseFeeDetail([
      { deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: '-0.06' },
      { deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: '-0.0012' },
      { deduction: 'yes', feeCoin: 'BGB', totalDeductionFee: '-0.005', totalFee: '-0.04' },
    ]);
    expect(out.format).toBe('fill-array');
    expect(figures(out.rows)).toEqual([
      ['USDT', '0.0612', '0', '0', '0.0612', false],
      ['BGB', '0.005', '0.005', '0', '0.04', false],
    ]);
    expect(Object.keys(out.rows[0]?.raw ?? {})).toEqual(['[0].totalDeductionFee', '[0].totalFee', '[1].totalDeductionFee', '[1].totalFee']);
  });

  it('summing paid per coin gives exactly what left the account', () => {
    // USDT: 0.2 (remainder) + 0.112 (legacy) - 0.0035 (rebate) = 0.3085; BGB: 0.025 + 0.0416 = 0.0666.
    const all = [
      parseFeeDetail('{"newFees":{"c":0,"d":-0.025,"r":-0.2,"t":-0.5}}', { receivedCoin: 'USDT' }),
      parseFeeDetail('{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.112}}'),
      parseFeeDetail({ deduction: 'no', feeCoin: 'USDT', totalFee: '0.0035' }),
      parseFeeDetail('{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":0.0416,"totalFee":-0.5}}', { receivedCoin: 'USDT' }),
    ].flatMap((out) => out.rows);
    const paidIn = (coin: string) => all.filter((r) => r.coin === coin).reduce((s, r) => s.plus(r.paid), new ExactDecimal(0)).toFixed();
    expect(paidIn('USDT')).toBe('0.3085');
    expect(paidIn('BGB')).toBe('0.0666');
  });
});

describe('parseFeeDetail: empty and malformed', () => {
  it.each([
    ['empty string', ''], ['blank string', '  '], ['null', null], ['absent', undefined],
    ['JSON null', 'null'], ['empty object text', '{}'], ['empty object', {}], ['empty array', []],
  ])('%s -> no rows, format empty, no problems', (_name, input) => {
    expect(parseFeeDetail(input, { receivedCoin: 'USDT' })).toEqual({ rows: [], format: 'empty', problems: [] });
  });

  it('null or "" on a key means absent: newFees null falls back to the legacy key beside it', () => {
    const out = parseFeeDetail('{"newFees":null,"USDT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}');
    expect(out.format).toBe('legacy');
    expect(figures(out.rows)).toEqual([['USDT', '0.3', '0', '0', '0.3', false]]);
    expect(parseFeeDetail('{"newFees":"","USDT":null}')).toEqual({ rows: [], format: 'empty', problems: [] });
    expect(parseFeeDetail({ deduction: '', feeCoin: '', totalDeductionFee: '', totalFee: '' }).format).toBe('empty');
  });

  it.each([
    ['truncated JSON', '{"newFees":', /not valid JSON/],
    ['plain text', 'abc', /not valid JSON/],
    ['a bare number', 42, /must be a JSON object/],
    ['a garbage amount', '{"newFees":{"c":0,"d":0,"r":0,"t":"111,1"}}', /newFees\.t: not a decimal number: "111,1"/],
    ['a missing t', '{"newFees":{"c":0,"d":0,"r":0}}', /newFees\.t .* missing/],
    ['an unreadable deduction flag', '{"USDT":{"deduction":"maybe","feeCoinCode":"USDT","totalFee":-1}}', /deduction must be yes\/no/],
    ['a legacy value that is not an object', '{"USDT":5}', /USDT must be an object/],
    ['a missing fee coin', '{"USDT":{"deduction":false,"totalFee":-1}}', /feeCoinCode \(the fee coin\) is missing/],
    ['a JS number amount', { deduction: 'no', feeCoin: 'USDT', totalFee: -0.1 }, /JavaScript number/],
    ['a coupon above the fee', '{"newFees":{"c":-0.6,"d":0,"r":0,"t":-0.5}}', /coupon c=-0.6 exceeds/],
    ['r contradicting t - c', '{"newFees":{"c":0,"d":0,"r":-0.05,"t":-0.1}}', /r=-0.05 disagrees with t - c = 0.1/],
    ['r + c above t', '{"newFees":{"c":-0.2,"d":-0.01,"r":-0.4,"t":-0.5}}', /exceeds the fee payable/],
  ])('%s -> no rows and a problem naming it', (_name, input, message) => {
    const out = parseFeeDetail(input, { receivedCoin: 'USDT' });
    expect(out.rows).toEqual([]);
    expect(out.problems.join('; ')).toMatch(message);
  });

  it('newFees without a received coin asks for one', () => {
    const out = parseFeeDetail('{"newFees":{"c":0,"d":0,"r":0,"t":-0.5}}');
    expect(out.rows).toEqual([]);
    expect(out.problems).toEqual([expect.stringMatching(/pass receivedCoin/)]);
  });

  it('unparseable text reports format malformed; a recognised but bad form keeps its format', () => {
    expect(parseFeeDetail('{oops').format).toBe('malformed');
    expect(parseFeeDetail('{"newFees":{"t":"x"}}', { receivedCoin: 'USDT' }).format).toBe('new');
  });
});
