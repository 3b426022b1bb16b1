import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

let sandbox: RunningSandbox;
let main: AccountLine;
let mainReadOnly: AccountLine;
let sub: AccountLine;
let trader: AccountLine;
const marginPath = '/api/v2/tax/margin-record';
const window = () => ({ startTime: String(Date.now() - 86_400_000), endTime: String(Date.now()) });
// The limiter's clock stands still unless a test moves it: token counts, not request timing,
// decide every answer below, however slowly a busy machine sends the requests.
let rateNowMs = 0;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: true, rateClock: () => rateNowMs });
  main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key');
  mainReadOnly = keyWhere(sandbox, (a) => a.uid === main.uid && a.perms.length === 1, 'second key of the main UID');
  sub = keyWhere(sandbox, (a) => !a.main, 'sub-account key');
  trader = keyWhere(sandbox, (a) => a.name === 'copy-trader', 'copy-trader key');
});
afterAll(() => sandbox.close());

const statusOf = async (key: AccountLine, path = marginPath) => (await call(sandbox.baseUrl, key, path, { query: window() })).status;

describe('per-UID rate limits', () => {
  it('a burst over E1\'s 10/s gets HTTP 429 with the real envelope', async () => {
    const order = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '20000', size: '0.001' };
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(sandbox.baseUrl, sub, '/api/v2/spot/trade/place-order', { body: order })));
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    // 10 at once, then 10/s (the bucket itself is pinned in RateLimiter.test.ts).
    expect(ok).toBe(10);
    expect(limited.length).toBe(20);
    expect(limited[0]!.json).toMatchObject({ code: '429', msg: 'Too Many Requests', data: null });
    rateNowMs += 500;
    const later = await Promise.all(Array.from({ length: 10 }, () => call(sandbox.baseUrl, sub, '/api/v2/spot/trade/place-order', { body: order })));
    expect(later.map((a) => a.status).sort()).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
  });

  it('two keys of one UID share the budget; another UID has its own', async () => {
    // E5 allows 1 request/second per UID.
    expect(await statusOf(main)).toBe(200);
    expect(await statusOf(mainReadOnly)).toBe(429);
    expect(await statusOf(main)).toBe(429);
    expect(await statusOf(sub)).toBe(200);
    const stats = (await (await fetch(`${sandbox.baseUrl}/_sandbox/stats`)).json()) as { rateLimited: Record<string, Record<string, number>>; requests: Record<string, Record<string, number>> };
    expect(stats.rateLimited.E5?.[main.uid]).toBe(2);
    expect(stats.requests.E5?.[main.uid]).toBe(3);
    expect(stats.rateLimited.E5?.[sub.uid]).toBeUndefined();
  });

  it('copy-trading traders get 1 request/second on E1', async () => {
    const order = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '20000', size: '0.001' };
    const first = await call(sandbox.baseUrl, trader, '/api/v2/spot/trade/place-order', { body: order });
    const second = await call(sandbox.baseUrl, trader, '/api/v2/spot/trade/place-order', { body: order });
    expect([first.status, second.status]).toEqual([200, 429]);
    rateNowMs += 1000;
    expect((await call(sandbox.baseUrl, trader, '/api/v2/spot/trade/place-order', { body: order })).status).toBe(200);
  });
});
