import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../src/api/rateBudget.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';

async function grantTimes(budget: RateBudget, n: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(Array.from({ length: n }, () => budget.acquire().then(() => times.push(performance.now()))));
  return times;
}

describe('RateBudget', () => {
  it('never lets one burst above one second of the rate', () => {
    expect(new RateBudget(0.9, 5).burst).toBe(1);
    expect(new RateBudget(9, 100).burst).toBe(9);
    expect(new RateBudget(18).burst).toBe(1);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new RateBudget(0)).toThrow(/ratePerSecond must be positive/);
  });

  it('spaces grants by its interval', async () => {
    const budget = new RateBudget(50);
    const times = await grantTimes(budget, 30);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number)).sort((a, b) => a - b);
    // A late timer may pull one grant up to a quarter interval early; a loaded machine can add
    // more noise to single gaps, so check the median gap and the whole span.
    expect(gaps[Math.floor(gaps.length / 2)] as number).toBeGreaterThanOrEqual(budget.intervalMs * 0.75);
    expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThanOrEqual(29 * budget.intervalMs * 0.75);
  });

  it('runs at its rate: twice the rate takes about half the time', async () => {
    const slowTimes = await grantTimes(new RateBudget(20), 16);
    const fastTimes = await grantTimes(new RateBudget(40), 16);
    const span = (t: number[]): number => (t.at(-1) as number) - (t[0] as number);
    const ratio = span(slowTimes) / span(fastTimes);
    // Wide bounds: the machine is shared, and timer lag only ever shrinks the ratio.
    expect(ratio).toBeGreaterThan(1.5);
    expect(ratio).toBeLessThan(2.5);
  });

  it('keeps a full interval after a request that left late', async () => {
    const budget = new RateBudget(10);
    await budget.acquire();
    // The granted request only reaches the wire 300 ms later (say, queued behind another budget).
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    budget.sent(sentAt);
    await budget.acquire();
    // Without sent() the next grant would come at once (its slot was 100 ms after the grant).
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(budget.intervalMs - 2);
  });

  it('serves callers first in, first out', async () => {
    const budget = new RateBudget(100);
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => budget.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reports how long a caller waited', async () => {
    const budget = new RateBudget(20);
    const first = await budget.acquire();
    const second = await budget.acquire();
    expect(first).toBeLessThan(second);
    expect(second).toBeGreaterThan(budget.intervalMs * 0.5);
  });

  it('pauses every caller after a 429, for Retry-After when given', async () => {
    const budget = new RateBudget(100);
    await budget.acquire();
    const t0 = performance.now();
    await budget.acquire();
    const unpaused = performance.now() - t0;
    expect(budget.pause(300)).toBeGreaterThan(250);
    const t1 = performance.now();
    const waits = await Promise.all([budget.acquire(), budget.acquire()]);
    const paused = performance.now() - t1;
    expect(paused).toBeGreaterThan(unpaused * 2);
    expect(Math.min(...waits)).toBeGreaterThan(250);
  });

  it('backs off exponentially over consecutive 429s and resets after a success', () => {
    const budget = new RateBudget(10);
    const first = budget.pause(undefined, Date.now());
    const second = budget.pause(undefined, Date.now() + 1);
    const third = budget.pause(undefined, Date.now() + 2);
    expect(first).toBeGreaterThanOrEqual(125);
    expect(third).toBeGreaterThan(second);
    budget.succeeded();
    // Pauses never shorten a pause already running.
    expect(budget.pause()).toBeGreaterThanOrEqual(third - 50);
  });

  it('does not escalate for requests that were already in flight when the pause began', () => {
    const budget = new RateBudget(10);
    const sentEarlier = Date.now() - 10;
    const first = budget.pause(undefined, sentEarlier);
    for (let i = 0; i < 5; i++) budget.pause(undefined, sentEarlier);
    // Five more in-flight 429s: still the first step (at most 250 ms), not 2^5 times that.
    expect(budget.pause(undefined, sentEarlier)).toBeLessThanOrEqual(Math.max(first, 250));
  });

  it('lets up to one second of requests go at once after idling, then paces', async () => {
    const budget = new RateBudget(20, 1000);
    expect(budget.burst).toBe(20);
    const waits = await Promise.all(Array.from({ length: 24 }, () => budget.acquire()));
    const paced = waits.slice(20);
    // The burst goes at once; the next four wait about 1, 2, 3 and 4 intervals.
    expect(Math.max(...waits.slice(0, 20))).toBeLessThan(Math.min(...paced));
    expect(paced[3] as number).toBeGreaterThan(budget.intervalMs * 3);
  });

  it('drops an aborted waiter without stalling the queue', async () => {
    const budget = new RateBudget(10);
    await budget.acquire();
    const ac = new AbortController();
    const aborted = budget.acquire(ac.signal);
    const next = budget.acquire();
    ac.abort(new Error('cancelled by test'));
    await expect(aborted).rejects.toThrow('cancelled by test');
    await expect(next).resolves.toBeGreaterThan(0);
    expect(budget.waiting).toBe(0);
  });
});

describe('RateBudgets', () => {
  it('gives one budget per (UID, endpoint)', () => {
    const budgets = new RateBudgets();
    const a = budgets.get('1001', 'marginRecords', 0.9);
    expect(budgets.get('1001', 'marginRecords', 0.9)).toBe(a);
    expect(budgets.get('1002', 'marginRecords', 0.9)).not.toBe(a);
    expect(budgets.get('1001', 'deposits', 9)).not.toBe(a);
    expect(a.ratePerSecond).toBe(0.9);
  });
});
