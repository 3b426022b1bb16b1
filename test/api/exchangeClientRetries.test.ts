import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/apiError.js';
import { ApiSandbox } from '../support/sandbox.js';

let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start();
});
afterEach(async () => {
  await sb.control('faults', { spec: '' });
});
afterAll(async () => {
  await sb?.close();
});

const pages = (n: number) => Array.from({ length: n }, (_, i) => ({ limit: String(1 + (i % 20)) }));

describe('ExchangeClient retries through faults', () => {
  it('gets every GET answer exactly right through 5xx, malformed bodies and dropped connections', async () => {
    // 40% of attempts fail; 10 retries leave a request failing for good about once in 25,000.
    const client = sb.client(sb.account(), { maxRetries: 10 });
    const queries = pages(40);
    const clean = await Promise.all(queries.map((q) => client.request('transfers', q)));
    await sb.control('faults', { spec: '5xx=0.2,malformed=0.1,drop=0.1' });
    const before = sb.events.length;
    const faulty = await Promise.all(queries.map((q) => sb.capture(() => client.request('transfers', q))));
    expect(faulty).toEqual(clean);
    const retries = sb.events.slice(before).filter((e) => e.type === 'retry');
    expect(retries.length).toBeGreaterThan(5);
    expect(new Set(retries.map((e) => e.exchangeCode ?? e.message?.split(':')[1]?.trim().slice(0, 12))).size).toBeGreaterThan(1);
    const stats = (await sb.control('stats')) as { faults: Record<string, number> };
    expect(stats.faults['5xx']).toBeGreaterThan(0);
    expect(stats.faults.malformed).toBeGreaterThan(0);
    expect(stats.faults.drop).toBeGreaterThan(0);
  });

  it('rides out injected 429s by pausing the budget', async () => {
    const client = sb.client(sb.account());
    await sb.control('faults', { spec: '429=0.2' });
    const before = sb.events.length;
    const answers = await Promise.all(pages(10).map((q) => client.request<unknown[]>('transfers', q)));
    expect(answers.every((a) => Array.isArray(a))).toBe(true);
    expect(sb.events.slice(before).filter((e) => e.type === 'rate-limited').length).toBeGreaterThan(0);
  });

  it('gives up after maxRetries with a retryable error naming the attempts', async () => {
    const client = sb.client(sb.account(), { maxRetries: 2 });
    await sb.control('faults', { spec: '5xx=1' });
    const e = await sb.capture(() => client.request('deposits')).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    expect([err.attempts, err.retryable, err.kind]).toEqual([3, true, 'exchange']);
    expect(err.httpStatus).toBeGreaterThanOrEqual(500);
    expect(err.message).toMatch(/gave up after 3 attempts/);
  });

  it('never retries a POST blindly', async () => {
    const client = sb.client(sb.account());
    await sb.control('faults', { spec: '5xx=1' });
    const before = sb.events.length;
    const order = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '1', size: '1' };
    const e = await sb.capture(() => client.request('placeSpotOrder', {}, order)).catch((err: unknown) => err);
    expect((e as ApiError).attempts).toBe(1);
    expect((e as ApiError).retryable).toBe(true);
    // A wait for the rate budget may come first (the bucket is shared with earlier tests); what
    // matters is one attempt, one error, and no retry.
    const mine = sb.events.slice(before).filter((ev) => ev.endpoint === 'placeSpotOrder' && ev.type !== 'rate-wait');
    expect(mine.map((ev) => ev.type)).toEqual(['error']);
  });

  it('retries a POST the exchange refused with 429, or one the caller marks idempotent', async () => {
    const client = sb.client(sb.account(), { maxRetries: 1 });
    const order = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '1', size: '1', clientOid: 'idem-1' };
    await sb.control('faults', { spec: '429=1' });
    const limited = await sb.capture(() => client.request('placeSpotOrder', {}, order)).catch((err: unknown) => err);
    expect([(limited as ApiError).exchangeCode, (limited as ApiError).attempts]).toEqual(['429', 2]);
    await sb.control('faults', { spec: '5xx=1' });
    const marked = await sb.capture(() => client.request('placeSpotOrder', {}, order, { retry: true })).catch((err: unknown) => err);
    expect((marked as ApiError).attempts).toBe(2);
  });

  it('times out a slow answer and says so', async () => {
    const client = sb.client(sb.account(), { timeoutMs: 150, maxRetries: 1 });
    await sb.control('faults', { spec: 'slow=1:600' });
    const e = await sb.capture(() => client.request('deposits')).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect([(e as ApiError).code, (e as ApiError).kind, (e as ApiError).attempts]).toEqual(['API_TIMEOUT', 'network', 2]);
    expect((e as ApiError).message).toMatch(/no answer within 150 ms/);
  });

  it('stops at once when the caller aborts', async () => {
    const client = sb.client(sb.account());
    // The answer would take 10 s: the abort 50 ms in wins however late a busy machine fires it.
    await sb.control('faults', { spec: 'slow=1:10000' });
    const ac = new AbortController();
    const pending = client.request('deposits', {}, undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stopped by the test')), 50);
    await expect(pending).rejects.toThrow('stopped by the test');
  });

  it('keeps secrets out of every event and error of the fault runs', () => {
    const printed = sb.everythingPrinted();
    expect(sb.events.length).toBeGreaterThan(50);
    for (const a of sb.sandbox.accounts) {
      expect(printed).not.toContain(a.secretKey);
      expect(printed).not.toContain(a.passphrase);
    }
  });
});
