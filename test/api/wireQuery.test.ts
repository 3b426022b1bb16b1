import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { requestHeaders } from '../../src/api/requestHeaders.js';
import { preHash, sign } from '../../src/api/sign.js';
import { wireQuery } from '../../src/api/wireQuery.js';

const key = { apiKey: 'ak-test', secretKey: 'sk-test-secret', passphrase: 'pp-test-pass', demo: false };

describe('wireQuery', () => {
  it('sorts keys, drops empty values, encodes for the wire and signs the decoded text', () => {
    const q = wireQuery({ symbol: 'A$B USDT', limit: '5', coin: undefined, idLessThan: '' });
    expect(q.signed).toBe('limit=5&symbol=A$B USDT');
    expect(q.wire).toBe('limit=5&symbol=A%24B%20USDT');
    expect(decodeURIComponent(q.wire)).toBe(q.signed);
  });
});

describe('requestHeaders', () => {
  it('signs timestamp + METHOD + path + ?query + body with the secret, base64', () => {
    const h = requestHeaders(endpoints.marginRecords, 'endTime=2&startTime=1', '', { locale: 'en-US', key, timestampMs: 1700000000000.4 });
    expect(h['access-timestamp']).toBe('1700000000000');
    expect(h['access-sign']).toBe(sign(key.secretKey, '1700000000000GET/api/v2/tax/margin-record?endTime=2&startTime=1'));
    expect(h['access-sign']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(h).toMatchObject({ 'access-key': 'ak-test', 'access-passphrase': 'pp-test-pass', locale: 'en-US', 'content-type': 'application/json' });
    expect(h.paptrading).toBeUndefined();
  });

  it('signs a POST body as sent, and marks demo keys', () => {
    const body = JSON.stringify({ symbol: 'SBTCSUSDT', size: '1' });
    const h = requestHeaders(endpoints.placeFuturesOrder, '', body, { locale: 'zh-CN', key: { ...key, demo: true }, timestampMs: 5 });
    expect(h['access-sign']).toBe(sign(key.secretKey, preHash('5', 'POST', '/api/v2/mix/order/place-order', '', body)));
    expect(h.paptrading).toBe('1');
    expect(h.locale).toBe('zh-CN');
  });

  it('sends no key material to public endpoints', () => {
    const h = requestHeaders(endpoints.publicSymbols, '', '', { locale: 'en-US', key, timestampMs: 5 });
    expect(Object.keys(h).sort()).toEqual(['content-type', 'locale']);
  });
});
