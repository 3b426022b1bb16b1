import { describe, expect, it } from 'vitest';
import { exactFeeDetail, parseFeeDetail } from '../../src/normalize/parseFeeDetail.js';
import type { FeeContext } from '../../src/normalize/parseFeeDetail.js';
import { fastFeeDetail } from '../../src/normalize/fastFeeDetail.js';
import { legacyFeeForms, modernFeeForms, spotFeeDetail } from '../../src/sandbox/data/generators/spotFeeDetail.js';

// The fast path must give exactly what the general path gives (every field, every key, in order)
// or decline; parseFeeDetail must always equal the general path.
function same(input: unknown, context: FeeContext): 'fast' | 'declined' {
  const exact = exactFeeDetail(input, context);
  const fast = fastFeeDetail(input, context);
  expect(parseFeeDetail(input, context)).toStrictEqual(exact);
  if (fast === undefined) return 'declined';
  expect(fast).toStrictEqual(exact);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(exact));
  return 'fast';
}

const contexts: FeeContext[] = [
  { receivedCoin: 'USDT' }, { receivedCoin: 'BGB' }, { receivedCoin: null }, {},
  { receivedCoin: 'BTC', positiveFeeIs: 'charge' }, { receivedCoin: 'USDT', platformCoin: 'XPC' },
];

const newFees = (c: string, d: string, r: string, t: string) => `{"newFees":{"c":${c},"d":${d},"deduction":false,"r":${r},"t":${t},"totalDeductionFee":0}}`;

describe('fastFeeDetail gives what the general path gives, or declines', () => {
  it('takes the usual forms (canonical numbers, string amounts, fill objects and arrays)', () => {
    const usual: unknown[] = [
      newFees('0', '0', '-0.1', '-0.1'),
      newFees('-0.25', '0', '-0.25', '-0.5'),
      '{"newFees":{"c":0,"d":-0.025,"r":-0.2,"t":-0.5}}',
      '{"newFees":{"c":-0.2,"d":-0.04,"r":-0.3,"t":-1}}',
      '{"newFees":{"c":0,"d":0.0416,"r":0,"t":-0.5}}',
      '{"newFees":{"c":0,"d":0,"r":0,"t":0.0012}}',
      '{"newFees":{"c":"-0.1","d":"0","r":"-0.4","t":"-0.5"}}',
      '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":0.08,"totalFee":0.08},"newFees":{"c":0,"d":0.08,"deduction":true,"r":0,"t":-0.0123,"totalDeductionFee":0.08}}',
      '{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0,"totalFee":-0.0123}}',
      '{"BTC":{"deduction":"no","feeCoinCode":"USDT","totalDeductionFee":"0","totalFee":"-0.25"}}',
      '{"USDT":{"deduction":false,"feeCoinCode":"USDT","newFees":{"c":0,"d":0,"deduction":false,"r":-0.00045,"t":-0.00045,"totalDeductionFee":0},"totalDeductionFee":0,"totalFee":-0.00045}}',
      '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":-0.0416,"totalFee":-0.5}}',
      '[{"deduction":"no","feeCoin":"USDT","totalDeductionFee":"0","totalFee":"-0.06"}]',
      { deduction: 'yes', feeCoin: 'BGB', totalDeductionFee: '-0.017118519726', totalFee: '-0.017118519726' },
      { deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '', totalFee: '0.0035' },
      [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: '-0.06' }, { deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: '-0.0012' },
        { deduction: 'yes', feeCoin: 'BGB', totalDeductionFee: '-0.005', totalFee: '-0.04' }],
      '{}', '[]', {}, [], '{"newFees":null,"USDT":null}', '', '  ', null, undefined,
    ];
    for (const input of usual) expect(same(input, { receivedCoin: 'USDT' }), JSON.stringify(input)).toBe('fast');
    for (const input of usual) for (const context of contexts) same(input, context);
  });

  it.each([
    ['trailing zeros kept as written', newFees('0', '0', '-1.10', '-1.10')],
    ['trailing zeros in the legacy form', '{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0,"totalFee":-0.1120000000}}'],
    ['an exponent', newFees('0', '0', '-8.9E-8', '-8.9E-8')],
    ['a lower-case exponent', newFees('0', '0', '-8.9e-8', '-8.9e-8')],
    ['an exponent a double writes back', newFees('0', '0', '-5e-7', '-5e-7')],
    ['a positive exponent', newFees('0', '0', '-1e+21', '-1e+21')],
    ['negative zero', newFees('-0', '0', '-0.1', '-0.1')],
    ['negative zero with places', newFees('-0.0', '0', '-0.1', '-0.1')],
    ['a zero with places', newFees('0.000', '0', '-0.1', '-0.1')],
    ['digits beyond a double', newFees('0', '0', '-12345678901234567890', '-12345678901234567890')],
    ['17 significant digits', newFees('0', '0', '-0.30000000000000004', '-0.30000000000000004')],
    ['1e-7 as plain text (a double writes 1e-7)', newFees('0', '0', '-0.0000001', '-0.0000001')],
    ['a repeated key, other value', '{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1,"t":-0.2}}'],
    ['a repeated key holding strings', '{"newFees":{"c":0,"d":0,"r":0,"t":"-0.1","t":"-0.2"}}'],
    ['a repeated key holding objects', '{"newFees":{"c":0,"d":0,"r":0,"t":-0.1},"newFees":{"c":0,"d":0,"r":0,"t":-0.1}}'],
    ['a repeated key, same value', '{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1,"t":-0.1}}'],
    ['a repeated key in a part nobody reads', '{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1,"x":{"a":1,"a":2}}}'],
    ['whitespace', '{ "newFees": {"c":0,"d":0,"r":-0.1,"t":-0.1} }'],
    ['whitespace before a colon', '{"newFees" :{"c":0,"d":0,"r":-0.1,"t":-0.1}}'],
    ['a repeated key hidden by whitespace', '{"newFees":{"c":0,"d":0,"r":0,"t":-0.1,"t" :-0.2}}'],
    ['an escaped quote in a key', '{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1,"a\\"b":1}}'],
    ['an escape in a coin', '{"U\\u0053DT":{"deduction":false,"feeCoinCode":"U\\u0053DT","totalFee":-0.3}}'],
    ['a colon inside a string', '{"USDT":{"deduction":false,"feeCoinCode":"US:DT","totalFee":-0.3,"note":"a\\":b"}}'],
    ['an object shaped as a lossless number', '{"newFees":{"c":0,"d":0,"r":-0.1,"t":{"isLosslessNumber":true,"value":"-0.1"}}}'],
    ['an amount string with blanks', newFees('0', '0', '" -0.1"', '" -0.1"')],
    ['an amount string with a plus sign', newFees('0', '0', '"+0.1"', '"+0.1"')],
    ['an amount string with a leading dot', newFees('0', '0', '".1"', '".1"')],
    ['an amount string with a trailing dot', newFees('0', '0', '"1."', '"1."')],
    ['an amount string in exponent form', newFees('0', '0', '"-1.5E-3"', '"-1.5E-3"')],
    ['an amount string with leading zeros', newFees('"-000.100"', '0', '"-00.4"', '"-0.5"')],
    ['an amount as a boolean', newFees('true', '0', '-0.1', '-0.1')],
    ['an amount as an object', newFees('{}', '0', '-0.1', '-0.1')],
    ['16 digits at one scale', newFees('0', '-1234567.12345678', '0', '-0.000000001')],
    ['15 digits at one scale', newFees('0', '-123456.12345678', '0', '-0.000000001')],
    ['huge but exact', newFees('0', '0', '-999999999999999', '-999999999999999')],
    ['a missing t', '{"newFees":{"c":0,"d":0,"r":0}}'],
    ['t as null', '{"newFees":{"c":0,"d":0,"r":0,"t":null}}'],
    ['a coupon above the fee', newFees('-0.6', '0', '0', '-0.5')],
    ['r contradicting t - c', newFees('0', '0', '-0.05', '-0.1')],
    ['r + c above t', '{"newFees":{"c":-0.2,"d":-0.01,"r":-0.4,"t":-0.5}}'],
    ['a rebate disagreeing with r', newFees('0', '0', '0.2', '0.1')],
    ['a coupon covering all', newFees('-0.5', '0', '0', '-0.5')],
    ['a zero fee', newFees('0', '0', '0', '0')],
    ['numbers in an array and a nested object before the amounts', '{"x":[1.50,{"y":2.0e1}],"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.10}}'],
    ['numbers after the amounts', '{"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.10},"z":[0.0,-0,1E400]}'],
    ['a number as a key-like string value', '{"newFees":{"c":"0.0","d":0,"r":-1.10,"t":-1.10,"x":"12"}}'],
    ['an exponent beyond the range toDecimalString takes', newFees('0', '0', '-1E-1001', '-1E-1001')],
    ['an exponent zero', newFees('0E5', '0', '-0.1', '-0.1')],
    ['negative exponent zero', newFees('-0E-3', '-0.0E2', '-0.1', '-0.1')],
    ['a bare number', '42'],
    ['JSON null', 'null'],
    ['a JSON string', '"x"'],
    ['truncated JSON', '{"newFees":'],
    ['blank', '  '],
    ['a legacy value that is not an object', '{"USDT":5}'],
    ['a legacy value that is an array', '{"USDT":[1]}'],
    ['a missing fee coin', '{"USDT":{"deduction":false,"totalFee":-1}}'],
    ['a blank fee coin', '{"USDT":{"deduction":false,"feeCoinCode":"  ","totalFee":-1}}'],
    ['a fee coin with blanks around it', '{"USDT":{"deduction":false,"feeCoinCode":" USDT ","totalFee":-1}}'],
    ['a fee coin as a number', '{"USDT":{"deduction":false,"feeCoinCode":5,"totalFee":-1}}'],
    ['deduction spelt YES', '{"BGB":{"deduction":" YES ","feeCoinCode":"BGB","totalDeductionFee":-0.2,"totalFee":-1}}'],
    ['deduction spelt True', '{"BGB":{"deduction":"True","feeCoinCode":"BGB","totalDeductionFee":-0.2,"totalFee":-1}}'],
    ['deduction unreadable', '{"USDT":{"deduction":"maybe","feeCoinCode":"USDT","totalFee":-1}}'],
    ['deduction as a number', '{"USDT":{"deduction":1,"feeCoinCode":"USDT","totalFee":-1}}'],
    ['deduction missing', '{"USDT":{"feeCoinCode":"USDT","totalFee":-1}}'],
    ['a deduction not in the platform coin', '{"USDT":{"deduction":true,"feeCoinCode":"USDT","totalDeductionFee":-1,"totalFee":-1}}'],
    ['a deduction without totalDeductionFee', '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalFee":-1}}'],
    ['a zero deduction with a fee', '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":0,"totalFee":-1}}'],
    ['a zero deduction without a fee', '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":0,"totalFee":0}}'],
    ['a deduction without totalFee', '{"BGB":{"deduction":true,"feeCoinCode":"BGB","totalDeductionFee":-0.3}}'],
    ['no totalFee without a deduction', '{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0}}'],
    ['a __proto__ key', '{"__proto__":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}'],
    ['a key starting with a digit, holding a number', '{"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.10,"1x":1.5}}'],
    ['an integer key after the amounts, holding a number', '{"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.20,"7":-1.30}}'],
    ['an integer-like coin key before others', '{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3},"1":{"deduction":false,"feeCoinCode":"BTC","totalFee":-0.1}}'],
    ['coins that merge to zero', '{"A":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.5},"B":{"deduction":false,"feeCoinCode":"USDT","totalFee":0.5}}'],
    ['a feeCoin key that is null', '{"feeCoin":null,"deduction":"no","totalFee":"-0.1"}'],
    ['newFees null beside a legacy key', '{"newFees":null,"USDT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}'],
    ['newFees as a string', '{"newFees":"x"}'],
    ['two nested newFees', '{"A":{"newFees":{"c":0,"d":0,"r":0,"t":-0.1}},"B":{"newFees":{"c":0,"d":-0.2,"r":0,"t":-0.3}}}'],
    ['nested newFees beside a plain legacy coin', '{"A":{"newFees":{"c":0,"d":0,"r":0,"t":-0.1}},"USDT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}'],
    ['a fill object shaped as a lossless number', '{"isLosslessNumber":true,"value":"1","deduction":"no","feeCoin":"USDT","totalFee":"-0.1"}'],
    ['a legacy entry shaped as a lossless number', '{"A":{"isLosslessNumber":true,"value":"1","deduction":false,"feeCoinCode":"USDT","totalFee":-0.1}}'],
    ['newFees shaped as a lossless number', '{"newFees":{"isLosslessNumber":true,"value":"1","c":0,"d":0,"r":0,"t":-0.1}}'],
    ['eight nested newFees of 15 digits, all in one coin (16 rows)', `{${Array.from({ length: 8 }, (_, i) => `"K${i}":{"newFees":{"c":0,"d":-999999999999999,"r":-999999999999999,"t":-999999999999999}}`).join(',')}}`],
    ['a nested lossless-number-shaped object', '{"A":{"isLosslessNumber":true,"value":"1"}}'],
    ['nine fill elements', JSON.stringify(Array.from({ length: 9 }, () => ({ deduction: 'no', feeCoin: 'USDT', totalFee: '-0.1' })))],
    ['eight fill elements at 15 digits', JSON.stringify(Array.from({ length: 8 }, () => ({ deduction: 'no', feeCoin: 'USDT', totalFee: '-999999999999999' })))],
    ['a fill element that is not an object', '[{"deduction":"no","feeCoin":"USDT","totalFee":"-0.1"},"x"]'],
    ['an object amount as a JS number', { deduction: 'no', feeCoin: 'USDT', totalFee: -0.1 }],
    ['an object whose amount is an unsafe number kept as text', { deduction: 'no', feeCoin: 'USDT', totalFee: '-12345678901234567890' }],
    ['an object shaped as a lossless number', { isLosslessNumber: true, value: '1' }],
    ['a fill object shaped as a lossless number, as an object', { isLosslessNumber: true, value: '1', deduction: 'no', feeCoin: 'USDT', totalFee: '-0.1' }],
    ['an object with a lossless number amount', { deduction: 'no', feeCoin: 'USDT', totalFee: { isLosslessNumber: true, value: '-0.1' } }],
    ['a bare JS number', 42],
    ['a boolean', true],
  ])('%s', (_name, input) => {
    for (const context of contexts) same(input, context);
  });

  it('takes numbers as written: trailing zeros, exponents, negative zero, 15 digits', () => {
    for (const input of [newFees('0', '0', '-1.10', '-1.10'), newFees('0', '0', '-8.9E-8', '-8.9E-8'), newFees('-0', '0', '-0.1', '-0.1'),
      newFees('0', '0', '-0.300000000000001', '-0.3000000000000010'), newFees('-0.0', '0', '-1e-6', '-1E-6'),
      '{"USDT":{"deduction":false,"feeCoinCode":"USDT","totalDeductionFee":0,"totalFee":-0.1120000000}}']) {
      expect(same(input, { receivedCoin: 'USDT' }), input).toBe('fast');
    }
    expect(fastFeeDetail(newFees('0', '0', '-1.10', '-1.10'), { receivedCoin: 'USDT' })?.rows[0]?.raw).toEqual({ 'newFees.c': '0', 'newFees.d': '0', 'newFees.r': '-1.10', 'newFees.t': '-1.10' });
  });

  it('declines what it cannot give exactly', () => {
    for (const input of ['{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1,"t":-0.2}}', newFees('0', '-1234567.12345678', '0', '-0.000000001'),
      '{ "newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1}}', '{"1":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}',
      '{"U\\u0053DT":{"deduction":false,"feeCoinCode":"USDT","totalFee":-0.3}}',
      { deduction: 'no', feeCoin: 'USDT', totalFee: -0.1 }]) {
      expect(fastFeeDetail(input, { receivedCoin: 'USDT' }), JSON.stringify(input)).toBeUndefined();
    }
  });

  it('every form the sandbox writes, over fees of every size and sign', () => {
    const fees = ['-0.1', '-0.0123', '-0.000000089', '-12.5', '-0.00045', '-1', '-100', '-0.000001', '-0.0000012', '-123456.789', '0.0035', '-0.00000001', '-9.87654321'];
    let fast = 0;
    let all = 0;
    for (const form of [...modernFeeForms, ...legacyFeeForms]) {
      for (const fee of fees) {
        for (const platformFee of ['0.08', '0.000000045', '12.3456']) {
          const text = spotFeeDetail(form, 'USDT', fee, platformFee);
          for (const context of [{ receivedCoin: 'USDT' }, { receivedCoin: 'BGB' }, { receivedCoin: 'BTC' }]) {
            all++;
            if (same(text, context) === 'fast') fast++;
          }
        }
      }
    }
    // Most take the fast path; exponent-notation amounts (the tiny ones) the general one.
    expect(fast).toBeGreaterThan(all / 2);
  });

  it('random feeDetails in every form agree', () => {
    let seed = 24;
    const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rand() * 10))).join('');
    const amount = (): string => {
      const kind = rand();
      if (kind < 0.1) return '0';
      if (kind < 0.15) return pick(['-0', '0.0', '-0.000', '1e5', '-8.9E-8', '2.5e-3', '1.10', '100', '-0.30000000000000004', '12345678901234567890']);
      const whole = rand() < 0.6 ? '0' : String(1 + Math.floor(rand() * 99999));
      const places = Math.floor(rand() * 13);
      const text = places === 0 ? whole : `${whole}.${digits(places)}`;
      return rand() < 0.7 ? `-${text}` : text;
    };
    // As a bare JSON number (only when valid JSON), or as a string.
    const wire = (a: string) => (rand() < 0.25 || !/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(a) ? JSON.stringify(a) : a);
    const coin = () => pick(['USDT', 'BTC', 'BGB', 'ETH']);
    const flag = () => pick(['true', 'false', '"yes"', '"no"', '"Yes"']);
    const coinEntry = (coinField: string) => `{"deduction":${flag()},"${coinField}":"${coin()}","totalDeductionFee":${wire(amount())},"totalFee":${wire(amount())}}`;
    const nf = () => `{"c":${wire(amount())},"d":${wire(amount())},"r":${wire(amount())},"t":${wire(amount())}}`;
    let fast = 0;
    const n = 3000;
    for (let i = 0; i < n; i++) {
      const form = Math.floor(rand() * 6);
      let text: string;
      if (form === 0) text = `{"newFees":${nf()}}`;
      else if (form === 1) {
        // Coupon, deduction and remainder consistent with t, so that rows (not problems) come out.
        const places = Math.floor(rand() * 10);
        const t = 1 + Math.floor(rand() * 1e6);
        const c = Math.floor(rand() * t / 3);
        const r = rand() < 0.5 ? 0 : Math.floor(rand() * (t - c));
        const dec = (m: number) => (m === 0 ? '0' : `-${(m / 10 ** places).toFixed(places).replace(/\.?0+$/, '')}`);
        text = `{"newFees":{"c":${dec(c)},"d":${rand() < 0.5 ? '0' : dec(1 + Math.floor(rand() * 1e5))},"r":${dec(r)},"t":${dec(t)}}}`;
      } else if (form === 2) text = `{"${coin()}":${coinEntry('feeCoinCode')},"${coin()}x":${coinEntry('feeCoinCode')}}`;
      else if (form === 3) text = `{"${coin()}":{"newFees":${nf()},"deduction":${flag()},"feeCoinCode":"${coin()}","totalFee":${wire(amount())}}}`;
      else if (form === 4) text = `[${coinEntry('feeCoin')},${coinEntry('feeCoin')}]`;
      else text = coinEntry('feeCoin');
      // A response body's object (its numbers JS numbers) or a feeDetail string.
      const input: unknown = rand() < 0.3 ? JSON.parse(text) : text;
      if (same(input, pick(contexts)) === 'fast') fast++;
    }
    expect(fast).toBeGreaterThan(n / 10);
  });
});

