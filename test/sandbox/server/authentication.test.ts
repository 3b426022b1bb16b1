import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call, type TestKey } from '../../support/signedClient.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';

const path = '/api/v2/tax/margin-record';
let sandbox: RunningSandbox;
let main: AccountLine;
const window = () => ({ startTime: String(Date.now() - 20 * 86_400_000), endTime: String(Date.now()) });

beforeAll(async () => {
  sandbox = await startTestSandbox();
  main = keyWhere(sandbox, (a) => a.main && a.broker && !a.demo && a.perms.includes('spot_trade'), 'full main key');
});
afterAll(() => sandbox.close());

/** The plain algorithm of api-notes.md, written here without src/api/sign.ts. */
async function independentCall(key: TestKey, method: 'GET' | 'POST', p: string, query: string, body: string) {
  const ts = String(Date.now());
  const signature = createHmac('sha256', key.secretKey).update(`${ts}${method}${p}${query ? `?${query}` : ''}${body}`).digest('base64');
  const res = await request(`${sandbox.baseUrl}${p}${query ? `?${query}` : ''}`, {
    method, body: method === 'POST' ? body : null,
    headers: { 'ACCESS-KEY': key.apiKey, 'ACCESS-SIGN': signature, 'ACCESS-TIMESTAMP': ts, 'ACCESS-PASSPHRASE': key.passphrase, 'Content-Type': 'application/json', locale: 'en-US' },
  });
  return { status: res.statusCode, json: (await res.body.json()) as { code: string; msg: string; data: unknown } };
}

describe('signing', () => {
  it('accepts an independently written signer on GET and POST', async () => {
    const { startTime, endTime } = window();
    const get = await independentCall(main, 'GET', path, `endTime=${endTime}&startTime=${startTime}`, '');
    expect(get.json.code).toBe('00000');
    expect(get.json.msg).toBe('success');
    const body = JSON.stringify({ symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '10000', size: '0.001' });
    const post = await independentCall(main, 'POST', '/api/v2/spot/trade/place-order', '', body);
    expect(post.json.code).toBe('00000');
  });

  it('verifies the query as the client sent it, sorted or not, and percent-decoded', async () => {
    const { startTime, endTime } = window();
    const unsorted = await call(sandbox.baseUrl, main, path, { rawQuery: `startTime=${startTime}&endTime=${endTime}&coin=%24AI` });
    expect(unsorted.json?.code).toBe('00000');
    const dollar = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/history-orders', { rawQuery: 'symbol=%24WIFUSDT' });
    expect(dollar.json?.code).toBe('00000');
    expect(dollar.json!.data.every((o: { symbol: string }) => o.symbol === '$WIFUSDT')).toBe(true);
  });

  it('refuses one changed byte of the query or of the body with 40009', async () => {
    const { startTime, endTime } = window();
    const query = await call(sandbox.baseUrl, main, path, {
      query: { startTime, endTime }, tamper: ({ query: q, body }) => ({ query: q.replace(/.$/, (d) => String((Number(d) + 1) % 10)), body }),
    });
    expect(query.status).toBe(400);
    expect(query.json).toMatchObject({ code: '40009', msg: 'sign signature error', data: null });
    const order = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '10000', size: '0.001' };
    const body = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/place-order', { body: order, tamper: ({ query: q, body: b }) => ({ query: q, body: b.replace('0.001', '0.002') }) });
    expect(body.json?.code).toBe('40009');
  });
});

describe('authentication errors', () => {
  const cases: [string, (k: TestKey) => Parameters<typeof call>[3], string][] = [
    ['missing ACCESS-KEY', () => ({ headers: { 'access-key': undefined } }), '40001'],
    ['missing ACCESS-SIGN', () => ({ headers: { 'access-sign': undefined } }), '40002'],
    ['missing ACCESS-TIMESTAMP', () => ({ headers: { 'access-timestamp': undefined } }), '40003'],
    ['missing ACCESS-PASSPHRASE', () => ({ headers: { 'access-passphrase': undefined } }), '40011'],
    ['a non-numeric timestamp', () => ({ timestamp: '2026-01-01T00:00:00Z' }), '40005'],
    ['a timestamp 31 s old', () => ({ timestamp: String(Date.now() - 31_000) }), '40008'],
    ['an unknown key', () => ({ headers: { 'access-key': 'bg_not_a_key' } }), '40006'],
    ['a wrong passphrase', () => ({ headers: { 'access-passphrase': 'wrongpass1' } }), '40012'],
    ['a signature made with another secret', () => ({ headers: { 'access-sign': createHmac('sha256', 'x').update('y').digest('base64') } }), '40009'],
    ['a live key with paptrading: 1', () => ({ headers: { paptrading: '1' } }), '40099'],
  ];
  it.each(cases)('%s gets its code, HTTP 400 and the error envelope', async (_name, options, code) => {
    const r = await call(sandbox.baseUrl, main, path, { query: window(), ...options(main) });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code, data: null });
    expect(typeof r.json?.requestTime).toBe('number');
    expect(r.json?.msg.length).toBeGreaterThan(5);
  });

  it('refuses a key whose IP whitelist excludes the caller (40018)', async () => {
    const fenced = keyWhere(sandbox, (a) => a.main && !a.demo && a.uid === main.uid && a.apiKey !== main.apiKey && a.perms.length === 4, 'whitelisted main key');
    const r = await call(sandbox.baseUrl, fenced, path, { query: window() });
    expect(r.json?.code).toBe('40018');
  });

  it('refuses a demo key sent without paptrading (40099)', async () => {
    const demo = keyWhere(sandbox, (a) => a.demo, 'demo key');
    const r = await call(sandbox.baseUrl, { ...demo, demo: false }, '/api/v2/mix/account/accounts', { query: { productType: 'SUSDT-FUTURES' } });
    expect(r.json?.code).toBe('40099');
    const ok = await call(sandbox.baseUrl, { ...demo, demo: true }, '/api/v2/mix/account/accounts', { query: { productType: 'SUSDT-FUTURES' } });
    expect(ok.json?.code).toBe('00000');
  });

  it('refuses a read-only key on a write endpoint (40014)', async () => {
    const readOnly = keyWhere(sandbox, (a) => a.main && !a.demo && a.perms.length === 1 && a.perms[0] === 'read', 'read-only key');
    const r = await call(sandbox.baseUrl, readOnly, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '10' } });
    expect(r.json).toMatchObject({ code: '40014', msg: 'Incorrect permissions, need spot_trade permissions' });
    const read = await call(sandbox.baseUrl, readOnly, path, { query: window() });
    expect(read.json?.code).toBe('00000');
  });

  it('follows a server clock skew set through /_sandbox/clock (40008 for an unskewed client)', async () => {
    await control(sandbox, 'clock', { skewMs: 120_000 });
    try {
      const late = await call(sandbox.baseUrl, main, path, { query: window() });
      expect(late.json?.code).toBe('40008');
      const corrected = await call(sandbox.baseUrl, main, path, { query: window(), timestamp: String(Date.now() + 120_000) });
      expect(corrected.json?.code).toBe('00000');
      expect(corrected.json!.requestTime - Date.now()).toBeGreaterThan(100_000);
    } finally {
      await control(sandbox, 'clock', { skewMs: 0 });
    }
  });
});
