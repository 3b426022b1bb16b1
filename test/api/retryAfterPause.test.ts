import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { ManualClock } from '../support/manualClock.js';
import { ApiSandbox } from '../support/sandbox.js';

// A 429's Retry-After goes into the budget: the retry (and every other caller of that endpoint)
// waits that long on the budget's clock. One ManualClock drives the client's budgets and the
// sandbox's limiter, so the test counts requests the sandbox saw at simulated times; the real
// time the machine takes changes nothing.
const clock = new ManualClock(Math.ceil(performance.now()));
let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start({ rateLimit: true, rateClock: () => clock.now() });
});
afterAll(async () => {
  await sb?.close();
});

const coinsRequests = () => sb.requests('X9', 'ip:127.0.0.1');
const until = async (check: () => boolean | Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setImmediate(r));
};

describe("the exchange's 429 with Retry-After", () => {
  it('pauses the budget for exactly Retry-After, then the retry goes through', async () => {
    await sb.control('retry-after', { seconds: 2 });
    // An unbudgeted client spends the sandbox's per-IP bucket for coins (3/s; the clock stands still).
    const rogue = new ExchangeClient({ baseUrl: sb.baseUrl, budgetKey: 'rogue', rateLimit: false, maxRetries: 0 });
    await Promise.allSettled(Array.from({ length: 4 }, () => rogue.request('publicCoins', {}, undefined, { retry: false })));
    await rogue.close();
    expect(await sb.rateLimited('X9', 'ip:127.0.0.1')).toBeGreaterThan(0);

    const budgets = new RateBudgets(clock);
    const events: { type: string; ms: number }[] = [];
    const client = sb.client(sb.account(), { budgets, onEvent: (e) => events.push(e), budgetKey: 'budgeted' });
    const before = await coinsRequests();
    let answered = false;
    const request = client.request('publicCoins').then(() => (answered = true));
    // Its first attempt meets the 429 and the retry queues on the paused budget.
    await until(async () => budgets.waiting === 1 && (await coinsRequests()) === before + 1);
    expect(events.filter((e) => e.type === 'rate-limited').map((e) => e.ms)).toEqual([2000]);
    await clock.advance(1999);
    await new Promise((r) => setTimeout(r, 50));
    expect([budgets.waiting, await coinsRequests(), answered]).toEqual([1, before + 1, false]);
    await clock.advance(1);
    await request;
    expect(await coinsRequests()).toBe(before + 2);
  });

  it('without a Retry-After (as api-notes.md documents the exchange) the sandbox sends none, and the budget backs off on its own', async () => {
    await sb.control('retry-after', { seconds: null });
    // The clock stands still, so the bucket (3) runs dry within four requests: a 429 without the header.
    let second = await fetch(`${sb.baseUrl}/api/v2/spot/public/coins`);
    for (let i = 0; i < 3 && second.status !== 429; i++) second = await fetch(`${sb.baseUrl}/api/v2/spot/public/coins`);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBeNull();
    expect(await second.json()).toMatchObject({ code: '429', msg: 'Too Many Requests', data: null });
  });
});
