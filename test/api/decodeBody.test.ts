import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/api/decodeBody.js';

describe('decodeBody', () => {
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
