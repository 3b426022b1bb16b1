import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/apiError.js';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { TradeledgerError } from '../../src/errors.js';
import { ApiSandbox } from '../support/sandbox.js';

let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start();
});
afterAll(async () => {
  await sb?.close();
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  sb.errors.push(e);
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe('ExchangeClient signing against the sandbox', () => {
  it('signs GETs, including values that need percent-encoding', async () => {
    const main = sb.account();
    const client = sb.client(main);
    const deposits = await client.request<unknown[]>('deposits', { limit: '100' });
    expect(Array.isArray(deposits)).toBe(true);
    expect(deposits.length).toBeGreaterThan(0);
    const none = await client.request<unknown[]>('deposits', { coin: 'US$T X/Y', limit: '5' });
    expect(none).toEqual([]);
  });

  it('signs a POST body and lets the order show up in history', async () => {
    const client = sb.client(sb.account());
    const placed = await client.request<{ orderId: string; clientOid: string }>('placeSpotOrder', {}, {
      symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '20000.5', size: '0.001', clientOid: 'client-test-1',
    });
    expect(placed.clientOid).toBe('client-test-1');
    const info = await client.request<{ orderId: string; price: string }[]>('spotOrderInfo', { orderId: placed.orderId });
    expect(info[0]?.orderId).toBe(placed.orderId);
  });

  it('sends the demo header for demo keys, and a mismatch is a clear auth error', async () => {
    const demo = sb.account((a) => a.demo);
    const ok = await sb.client(demo).request<unknown[]>('futuresAccounts', { productType: 'SUSDT-FUTURES' });
    expect(Array.isArray(ok)).toBe(true);
    const e = await failure(sb.client({ ...demo, demo: false }).request('futuresAccounts', { productType: 'SUSDT-FUTURES' }));
    expect([e.exchangeCode, e.kind, e.retryable]).toEqual(['40099', 'auth', false]);
    expect(e.message).toMatch(/TRADELEDGER_DEMO=1/);
  });

  it('turns a wrong passphrase, secret or key into typed, non-retried auth errors', async () => {
    const main = sb.account();
    const wrongPass = await failure(sb.client({ ...main, passphrase: 'WrongPassphrase99' }).request('deposits'));
    expect([wrongPass.code, wrongPass.exchangeCode, wrongPass.kind, wrongPass.retryable, wrongPass.attempts]).toEqual(['API_40012', '40012', 'auth', false, 1]);
    expect(wrongPass.message).toMatch(/API key or passphrase is wrong; check TRADELEDGER_API_PASSPHRASE/);
    const wrongSecret = await failure(sb.client({ ...main, secretKey: 'WrongSecretValue123456' }).request('deposits'));
    expect([wrongSecret.exchangeCode, wrongSecret.kind]).toEqual(['40009', 'auth']);
    expect(wrongSecret.message).toMatch(/TRADELEDGER_API_SECRET/);
    const wrongKey = await failure(sb.client({ ...main, apiKey: 'bg_not_a_key' }).request('deposits'));
    expect([wrongKey.exchangeCode, wrongKey.kind]).toEqual(['40006', 'auth']);
    expect(wrongKey.httpStatus).toBeGreaterThanOrEqual(400);
  });

  it('names a missing permission and an IP whitelist as auth problems', async () => {
    const readOnly = sb.account((a) => a.name === 'main' && a.perms.length === 1);
    const e = await failure(sb.client(readOnly).request('placeSpotOrder', {}, { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '1' }));
    expect([e.exchangeCode, e.kind]).toEqual(['40014', 'auth']);
    const e2 = await failure(sb.client(sb.account((a) => a.name === 'main' && a.perms.length > 1 && a !== sb.account())).request('deposits'));
    expect([e2.exchangeCode, e2.kind]).toEqual(['40018', 'auth']);
  });

  it('refuses a signed call without credentials before sending anything', async () => {
    const client = new ExchangeClient({ baseUrl: sb.baseUrl, budgetKey: 'nobody' });
    try {
      const e = await client.request('deposits').catch((err: unknown) => err);
      expect(e).toBeInstanceOf(TradeledgerError);
      expect((e as TradeledgerError).kind).toBe('config');
      expect((e as TradeledgerError).hint).toMatch(/TRADELEDGER_API_KEY/);
      const symbols = await client.request<{ symbol: string }[]>('publicSymbols');
      expect(symbols.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('rejects a base URL it cannot use with a config error', () => {
    expect(() => new ExchangeClient({ baseUrl: 'not a url', budgetKey: 'x' })).toThrow(/is not a URL/);
    expect(() => new ExchangeClient({ baseUrl: 'http://127.0.0.1:1/api', budgetKey: 'x' })).toThrow(/without a path/);
  });

  it('never lets a secret or passphrase into an error, an event or the client itself', () => {
    const printed = sb.everythingPrinted();
    expect(sb.errors.length).toBeGreaterThan(3);
    for (const a of sb.sandbox.accounts) {
      expect(printed).not.toContain(a.secretKey);
      expect(printed).not.toContain(a.passphrase);
    }
    expect(printed).not.toContain('WrongPassphrase99');
    expect(printed).not.toContain('WrongSecretValue123456');
  });
});
