import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { parseExchangeTime } from '../../src/normalize/parseExchangeTime.js';

describe('parseExchangeTime', () => {
  it('reads 13-digit milliseconds', () => {
    const out = parseExchangeTime('1700000000123');
    expect(out).toMatchObject({ ok: true, ms: '1700000000123', unit: 'ms' });
    if (out?.ok) expect(out.date.toISOString()).toBe('2023-11-14T22:13:20.123Z');
  });

  it('reads 10-digit seconds and says so', () => {
    const out = parseExchangeTime('1700000000');
    expect(out).toMatchObject({ ok: true, ms: '1700000000000', unit: 's' });
    if (out?.ok) expect(out.date.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('accepts lossless-json numbers, safe integers and bigints', () => {
    const parsed = parse('{"requestTime":1700000000123}') as { requestTime: unknown };
    expect(parseExchangeTime(parsed.requestTime)).toMatchObject({ ok: true, ms: '1700000000123', unit: 'ms' });
    expect(parseExchangeTime(1700000000)).toMatchObject({ ok: true, ms: '1700000000000', unit: 's' });
    expect(parseExchangeTime(1700000000123n)).toMatchObject({ ok: true, unit: 'ms' });
  });

  it.each([[''], [null], [undefined], ['   ']])('%j is absent -> null', (input) => {
    expect(parseExchangeTime(input)).toBeNull();
  });

  it.each([
    ['abc', /not a Unix timestamp: "abc"/],
    ['1700000000.5', /not a Unix timestamp/],
    ['-1700000000', /not a Unix timestamp/],
    ['170000000012', /12 digits; expected 13 \(milliseconds\) or 10 \(seconds\)/],
    ['17000000001234', /14 digits/],
    [1.5, /got number/],
    [{}, /got object/],
  ])('%j -> a problem, not a throw', (input, problem) => {
    const out = parseExchangeTime(input);
    expect(out?.ok).toBe(false);
    if (out && !out.ok) expect(out.problem).toMatch(problem);
  });
});
