import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { decimalString, toDecimalString } from '../../src/normalize/decimalString.js';
import { TradeledgerError } from '../../src/errors.js';
import { ExactDecimal } from '../../src/normalize/decimal.js';

describe('toDecimalString', () => {
  it.each([
    ['-8.9E-8', '-0.000000089'],
    ['8.9e-8', '0.000000089'],
    ['1.2300E+2', '123'],
    ['-0.1120000000', '-0.112'],
    ['+5', '5'],
    ['.5', '0.5'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
    [' 42 ', '42'],
    ['007.500', '7.5'],
    ['-000', '0'],
    ['+0.0', '0'],
    ['00.001', '0.001'],
    ['-10', '-10'],
  ])('%s -> %s', (text, expected) => {
    expect(toDecimalString(text)).toEqual({ ok: true, value: expected });
  });

  it('the string fast path for plain decimals agrees with decimal.js on generated texts', () => {
    // A small deterministic generator (no Math.random) of signs, leading and trailing zeros.
    let state = 12345;
    const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2147483648) % n);
    const digits = (n: number) => Array.from({ length: n }, () => String(next(10))).join('');
    for (let i = 0; i < 2000; i++) {
      const sign = ['', '-', '+'][next(3)] ?? '';
      const text = `${sign}${'0'.repeat(next(3))}${digits(1 + next(20))}${next(2) ? `.${digits(1 + next(20))}${'0'.repeat(next(3))}` : ''}`;
      expect(toDecimalString(text)).toEqual({ ok: true, value: new ExactDecimal(text).toFixed() });
    }
  });

  it('reads lossless-json numbers by their text and bigints exactly', () => {
    const parsed = parse('{"a":-8.9E-8,"b":0.30000000000000000001}') as { a: unknown; b: unknown };
    expect(toDecimalString(parsed.a)).toEqual({ ok: true, value: '-0.000000089' });
    // A float would have made this 0.3.
    expect(toDecimalString(parsed.b)).toEqual({ ok: true, value: '0.30000000000000000001' });
    expect(toDecimalString(12345678901234567890n)).toEqual({ ok: true, value: '12345678901234567890' });
  });

  it.each([
    ['111,1', /not a decimal number: "111,1"/],
    ['abc', /not a decimal number: "abc"/],
    ['', /empty string/],
    ['NaN', /not a decimal number/],
    ['Infinity', /not a decimal number/],
    ['1e', /not a decimal number/],
    ['0x10', /not a decimal number/],
    ['1e5000', /out of range/],
  ])('rejects %j with a flag, not a throw', (text, problem) => {
    const out = toDecimalString(text);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.problem).toMatch(problem);
  });

  it('rejects JS numbers, null and objects, saying why', () => {
    const number = toDecimalString(0.1);
    expect(number.ok).toBe(false);
    if (!number.ok) expect(number.problem).toMatch(/JavaScript number .* lossless-json/);
    expect(toDecimalString(null)).toEqual({ ok: false, problem: 'expected a decimal number, got null' });
    expect(toDecimalString({})).toEqual({ ok: false, problem: 'expected a decimal number, got an object' });
  });
});

describe('decimalString', () => {
  it('decimalString throws a TradeledgerError that names the value and the fix', () => {
    expect(decimalString('1.000')).toBe('1');
    const error = caught(() => decimalString('111,1'));
    expect(error).toBeInstanceOf(TradeledgerError);
    expect(error).toMatchObject({ code: 'BAD_DECIMAL', message: 'not a decimal number: "111,1"', kind: 'data' });
    expect((error as TradeledgerError).hint).toMatch(/toDecimalString/);
  });
});

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
