import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { ApiSandbox } from '../support/sandbox.js';

let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start({ rateLimit: true });
});
afterAll(async () => {
  await sb?.close();
});

const hammer = (n: number, call: () => Promise<unknown>) => Promise.allSettled(Array.from({ length: n }, call));

// E19 transfers: 20 requests/second/UID in the spec and the sandbox.
describe('ExchangeClient rate budgets against the sandbox limits', () => {
  it('lets many concurrent callers of one endpoint through with zero 429s', async () => {
    const main = sb.account();
    const client = sb.client(main);
    const results = await hammer(50, () => client.request('transfers', {}, undefined, { retry: false }));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await sb.requests('E19', main.uid)).toBeGreaterThanOrEqual(50);
    expect(await sb.rateLimited('E19', main.uid)).toBe(0);
    expect(sb.events.filter((e) => e.type === 'rate-wait' && e.endpoint === 'transfers').length).toBeGreaterThan(30);
  });

  it('shares one budget between clients with the same budget key (and without it the sandbox answers 429)', async () => {
    const sub = sb.account((a) => !a.main && !a.demo);
    const a = sb.client(sub);
    const b = sb.client(sub);
    const shared = await Promise.all([
      hammer(40, () => a.request('transfers', {}, undefined, { retry: false })),
      hammer(40, () => b.request('transfers', {}, undefined, { retry: false })),
    ]);
    expect(shared.flat().filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await sb.rateLimited('E19', sub.uid)).toBe(0);

    // The control: two clients of the same UID that do not share a budget overrun the limit.
    await new Promise((r) => setTimeout(r, 1100));
    const c = sb.client(sub, { budgetKey: `${sub.uid}-c` });
    const d = sb.client(sub, { budgetKey: `${sub.uid}-d` });
    await Promise.all([
      hammer(40, () => c.request('transfers', {}, undefined, { retry: false })),
      hammer(40, () => d.request('transfers', {}, undefined, { retry: false })),
    ]);
    expect(await sb.rateLimited('E19', sub.uid)).toBeGreaterThan(0);
  });

  it('spends the budget at close to the configured rate: the shared pair takes twice as long as one client', async () => {
    const sub = sb.account((a) => !a.main && !a.demo && a.uid !== sb.account((x) => !x.main && !x.demo).uid);
    const one = sb.client(sub);
    let t0 = performance.now();
    await hammer(30, () => one.request('transfers', {}, undefined, { retry: false }));
    const single = performance.now() - t0;
    const two = sb.client(sub);
    t0 = performance.now();
    await Promise.all([hammer(30, () => one.request('transfers')), hammer(30, () => two.request('transfers'))]);
    const pair = performance.now() - t0;
    expect(pair / single).toBeGreaterThan(1.6);
    expect(pair / single).toBeLessThan(2.6);
    expect(await sb.rateLimited('E19', sub.uid)).toBe(0);
  });

  it('holds all endpoints of one origin under the per-IP limit', async () => {
    const main = sb.account();
    const both = (client: ReturnType<ApiSandbox['client']>) => Promise.all([
      hammer(6, () => client.request('transfers')), hammer(6, () => client.request('deposits')),
    ]);
    // 300/minute at 0.9 is 4.5 requests/s for the two endpoints together.
    const limited = sb.client(main, { budgets: new RateBudgets(), ipRatePerMinute: 300 });
    let t0 = performance.now();
    await both(limited);
    const underIpLimit = performance.now() - t0;
    const free = sb.client(main, { budgets: new RateBudgets(), ipRatePerMinute: 0 });
    t0 = performance.now();
    await both(free);
    const perEndpointOnly = performance.now() - t0;
    expect(underIpLimit / perEndpointOnly).toBeGreaterThan(2.5);
  });
});
