import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../src/normalize/losslessJson.js';
import { isNumberText } from '../../src/normalize/isNumberText.js';

const decodeBody = (text: string) => parseJsonLossless(text, 'exact');

describe("parseJsonLossless(text, 'exact'): the API's response bodies", () => {
  it('keeps the exact text of numbers a double cannot hold', () => {
    const out = decodeBody('{"requestTime":1700000000123,"data":{"big":12345678901234567890,"fine":1.00000000000000001,"huge":1e400}}');
    expect(out).toEqual({ requestTime: 1700000000123, data: { big: '12345678901234567890', fine: '1.00000000000000001', huge: '1e400' } });
  });

  it('looks closely at 16-digit and exponent literals only when they could lose digits', () => {
    const out = decodeBody('{"a":9007199254740993,"b":1234567890123456,"c":1.5e3,"d":-0.1234567890123456789,"e":[2e-400]}');
    expect(out).toEqual({ a: '9007199254740993', b: 1234567890123456, c: 1500, d: '-0.1234567890123456789', e: ['2e-400'] });
  });

  it('leaves strings alone, including strings that look like numbers', () => {
    const text = '{"data":[{"size":"0.30000000000000000001","t":"12:30","x":"a,123456789012345678901"}]}';
    expect(decodeBody(text)).toEqual(JSON.parse(text));
  });

  it('returns safe numbers as numbers whose text round-trips', () => {
    const out = decodeBody('{"a":0.1,"b":-8.9E-8,"c":[1,2.5]}') as { a: number; b: number; c: number[] };
    expect(String(out.a)).toBe('0.1');
    expect(out.b).toBe(-8.9e-8);
    expect(out.c).toEqual([1, 2.5]);
  });

  it('throws a SyntaxError on malformed JSON, on both paths', () => {
    expect(() => decodeBody('{"code":"00000","data":[{"id":"1"')).toThrow(SyntaxError);
    expect(() => decodeBody('{"a":123456789012345678901,')).toThrow(SyntaxError);
  });
});

describe("parseJsonLossless(text): every number as its text", () => {
  it('keeps each number as written, safe or not, and strings as strings', () => {
    const out = parseJsonLossless('{"c":0,"r":-0.1,"t":1.10,"e":-8.9E-8,"s":"0.5"}') as Record<string, unknown>;
    expect(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, isNumberText(v) ? `number ${v.value}` : v]))).toEqual({
      c: 'number 0', r: 'number -0.1', t: 'number 1.10', e: 'number -8.9E-8', s: '0.5',
    });
  });

  it('throws a SyntaxError on malformed JSON', () => {
    expect(() => parseJsonLossless('{"newFees":')).toThrow(SyntaxError);
  });
});
