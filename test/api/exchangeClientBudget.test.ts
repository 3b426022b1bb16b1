import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { ManualClock } from '../support/manualClock.js';
import { ApiSandbox } from '../support/sandbox.js';

// The first tests run on real time and assert counts only (zero 429s). Those that compare rates
// move one ManualClock, shared by the clients' budgets and the sandbox's limiter, 1 ms at a time,
// and let every granted request get its answer before time moves on: the sandbox sees each
// request at the simulated time it left, so a busy machine cannot change what they count.
let manual: ManualClock | undefined;
/** The shared simulated clock, from the first test that needs it on (starting at real time, so the limiter never runs backwards). */
const manualClock = (): ManualClock => (manual ??= new ManualClock(performance.now()));

let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start({ rateLimit: true, rateClock: () => manual?.now() ?? performance.now() });
});
afterAll(async () => {
  await sb?.close();
});

const hammer = (n: number, call: () => Promise<unknown>) => Promise.allSettled(Array.from({ length: n }, call));

/**
 * Settles `work` on the manual clock: advances it 1 ms at a time, and before each step waits
 * (real time, however long the machine needs) until every request its budgets granted has its
 * answer. Returns the simulated ms it took.
 */
async function onManualTime<T>(budgets: RateBudgets, work: (track: <R>(p: Promise<R>) => Promise<R>) => Promise<T>): Promise<{ result: T; simulatedMs: number }> {
  const clock = manualClock();
  let pending = 0;
  const track = <R>(p: Promise<R>): Promise<R> => {
    pending += 1;
    return p.finally(() => (pending -= 1));
  };
  let done = false;
  const start = clock.now();
  const running = work(track).finally(() => (done = true));
  for (;;) {
    while (pending > budgets.waiting) await new Promise((r) => setImmediate(r));
    if (done) break;
    await clock.advance(1);
  }
  return { result: await running, simulatedMs: clock.now() - start };
}

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

    // The control: two clients of the same UID that do not share a budget overrun the limit
    // (on the manual clock: 2 x 19/s against 20/s, whatever the machine's speed).
    const budgets = new RateBudgets(manualClock());
    await manualClock().advance(1000);
    const c = sb.client(sub, { budgetKey: `${sub.uid}-c`, budgets });
    const d = sb.client(sub, { budgetKey: `${sub.uid}-d`, budgets });
    await onManualTime(budgets, (track) => Promise.all([
      hammer(40, () => track(c.request('transfers', {}, undefined, { retry: false }))),
      hammer(40, () => track(d.request('transfers', {}, undefined, { retry: false }))),
    ]));
    expect(await sb.rateLimited('E19', sub.uid)).toBeGreaterThan(0);
  });

  it('spends the budget at the configured rate: the shared pair takes twice as long as one client', async () => {
    const sub = sb.account((a) => !a.main && !a.demo && a.uid !== sb.account((x) => !x.main && !x.demo).uid);
    const budgets = new RateBudgets(manualClock());
    const one = sb.client(sub, { budgets });
    const single = await onManualTime(budgets, (track) => hammer(30, () => track(one.request('transfers', {}, undefined, { retry: false }))));
    const two = sb.client(sub, { budgets });
    const pair = await onManualTime(budgets, (track) => Promise.all([hammer(30, () => track(one.request('transfers'))), hammer(30, () => track(two.request('transfers')))]));
    expect(single.result.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(pair.result.flat().filter((r) => r.status === 'rejected')).toEqual([]);
    // 30 requests at 19/s (0.95 of 20) span 29 intervals of 52.6 ms (timers round each up to 53); 60 span 59.
    expect(single.simulatedMs).toBeGreaterThanOrEqual(29 * (1000 / 19) - 15);
    expect(single.simulatedMs).toBeLessThanOrEqual(29 * 53 + 2);
    expect(pair.simulatedMs / single.simulatedMs).toBeGreaterThan(1.9);
    expect(pair.simulatedMs / single.simulatedMs).toBeLessThan(2.2);
    expect(await sb.rateLimited('E19', sub.uid)).toBe(0);
  });

  it('holds all endpoints of one origin under the per-IP limit', async () => {
    const main = sb.account();
    const both = (client: ReturnType<ApiSandbox['client']>, track: <R>(p: Promise<R>) => Promise<R>) => Promise.all([
      hammer(6, () => track(client.request('transfers'))), hammer(6, () => track(client.request('deposits'))),
    ]);
    // 300/minute at 0.95 is 4.75 requests/s for the two endpoints together: 12 requests span
    // at least 11 of its intervals (2.3 s); each endpoint alone would pass its 6 in 0.3 s.
    const limitedBudgets = new RateBudgets(manualClock());
    const limited = sb.client(main, { budgets: limitedBudgets, ipRatePerMinute: 300 });
    const underIpLimit = await onManualTime(limitedBudgets, (track) => both(limited, track));
    const freeBudgets = new RateBudgets(manualClock());
    const free = sb.client(main, { budgets: freeBudgets, ipRatePerMinute: 0 });
    const perEndpointOnly = await onManualTime(freeBudgets, (track) => both(free, track));
    expect(underIpLimit.simulatedMs).toBeGreaterThanOrEqual(11 * (60_000 / 300 / 0.95) - 60);
    expect(perEndpointOnly.simulatedMs).toBeLessThan(1000);
    expect(underIpLimit.simulatedMs / perEndpointOnly.simulatedMs).toBeGreaterThan(2.5);
  });
});
