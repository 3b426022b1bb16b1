import { describe, expect, it } from 'vitest';
import { causalMarginMs, RateBudget } from '../../src/api/rateBudget.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { ManualClock } from '../support/manualClock.js';

// Timing runs on a ManualClock: a test advances simulated time and checks when each grant came,
// so a busy machine (late timers, a slow event loop) cannot change what it sees.

/** When (simulated ms) each of `n` callers was granted, advancing the clock until all were. */
async function grantTimes(clock: ManualClock, budget: RateBudget, n: number): Promise<number[]> {
  const times: number[] = [];
  const all = Promise.all(Array.from({ length: n }, () => budget.acquire().then(() => times.push(clock.now()))));
  while (times.length < n) await clock.advance(1);
  await all;
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
    const clock = new ManualClock();
    const budget = new RateBudget(50, 1, clock);
    const times = await grantTimes(clock, budget, 30);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    // The first grant after idling counts as up to a quarter interval late (the timer-lag
    // tolerance), so the second may come that much sooner; every later one is a full interval on.
    expect(gaps[0]).toBeGreaterThanOrEqual(budget.intervalMs * 0.75);
    expect(gaps.slice(1)).toEqual(Array.from({ length: 28 }, () => budget.intervalMs));
    // Count-based: a simulated second holds no more than one second's worth (plus that tolerance).
    expect(times.filter((t) => t < (times[0] as number) + 1000).length).toBeLessThanOrEqual(budget.ratePerSecond + 1);
  });

  it('runs at its rate: twice the rate takes half the time', async () => {
    const slowClock = new ManualClock();
    const slowTimes = await grantTimes(slowClock, new RateBudget(20, 1, slowClock), 16);
    const fastClock = new ManualClock();
    const fastTimes = await grantTimes(fastClock, new RateBudget(40, 1, fastClock), 16);
    const span = (t: number[]): number => (t.at(-1) as number) - (t[0] as number);
    // 15 gaps of 50 ms (less the first grant's tolerance of 12.5, rounded up) against 15 of 25 (less 6.25).
    expect(span(slowTimes)).toBe(14 * 50 + 38);
    expect(span(fastTimes)).toBe(14 * 25 + 19);
    expect(span(slowTimes) / span(fastTimes)).toBeCloseTo(2, 1);
  });

  it('keeps a full interval after a request that left late', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(10, 1, clock);
    await budget.acquire();
    // The granted request only reaches the wire 300 ms later (say, queued behind another budget).
    await clock.advance(300);
    const sentAt = budget.sent();
    expect(sentAt).toBe(clock.now());
    let granted = false;
    const next = budget.acquire().then(() => (granted = true));
    // Without sent() the next grant would come at once (its slot was 100 ms after the grant).
    await clock.advance(budget.intervalMs - 1);
    expect(granted).toBe(false);
    await clock.advance(1);
    await next;
    expect(granted).toBe(true);
  });

  it('serves callers first in, first out', async () => {
    const budget = new RateBudget(100);
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => budget.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reports how long a caller waited', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(20, 1, clock);
    const first = budget.acquire();
    const second = budget.acquire();
    await clock.advance(100);
    expect(await first).toBe(0);
    // 50 ms less the first grant's quarter-interval tolerance (12.5), rounded up to a timer's ms.
    expect(await second).toBe(38);
  });

  it('pauses every caller after a 429, for Retry-After when given', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(100, 1, clock);
    const waits: number[] = [];
    void budget.acquire().then((w) => waits.push(w));
    await clock.advance(0);
    expect(waits).toEqual([0]);
    expect(budget.pause(300)).toBe(300);
    void budget.acquire().then((w) => waits.push(w));
    void budget.acquire().then((w) => waits.push(w));
    // Unpaused, the next grant was due within one interval (10 ms); paused, nothing goes before 300 ms.
    await clock.advance(299);
    expect(waits).toEqual([0]);
    await clock.advance(1);
    expect(waits).toEqual([0, 300]);
    // Then paced again, one at a time, not a burst.
    await clock.advance(budget.intervalMs);
    expect(waits).toEqual([0, 300, 300 + budget.intervalMs]);
  });

  it('backs off exponentially over consecutive 429s and resets after a success', () => {
    const clock = new ManualClock();
    const budget = new RateBudget(10, 1, clock);
    const first = budget.pause(undefined, clock.now());
    const second = budget.pause(undefined, clock.now() + 1);
    const third = budget.pause(undefined, clock.now() + 2);
    expect(first).toBeGreaterThanOrEqual(125);
    expect(third).toBeGreaterThan(second);
    budget.succeeded();
    // Pauses never shorten a pause already running.
    expect(budget.pause()).toBe(third);
  });

  it('does not escalate for requests that were already in flight when the pause began', () => {
    const clock = new ManualClock();
    const budget = new RateBudget(10, 1, clock);
    const sentEarlier = clock.now() - 10;
    const first = budget.pause(undefined, sentEarlier);
    for (let i = 0; i < 5; i++) budget.pause(undefined, sentEarlier);
    // Five more in-flight 429s: still the first step (at most 250 ms), not 2^5 times that.
    expect(budget.pause(undefined, sentEarlier)).toBeLessThanOrEqual(Math.max(first, 250));
  });

  it('lets up to one second of requests go at once after idling, then paces', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(20, 1000, clock);
    expect(budget.burst).toBe(20);
    const all = Promise.all(Array.from({ length: 24 }, () => budget.acquire()));
    await clock.advance(1000);
    const waits = await all;
    const paced = waits.slice(20);
    // The burst goes at once; the next four wait about 1, 2, 3 and 4 intervals (the first less
    // the quarter-interval tolerance), one interval apart.
    expect(waits.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 0));
    expect(paced).toEqual([38, 88, 138, 188]);
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

// A 1 request/s limit has no burst room: a request the server counts late (a busy event loop on
// either side) and the next one counted on time arrive closer than a second apart. The causal
// window spaces each request a full second (+ margin) after the previous one's answer came back,
// which is after the server counted it, so no lateness can bring two into one server second.
describe('RateBudget with a causal window (1 request/s endpoints)', () => {
  it('grants nothing while a request is in flight, however long past its interval', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(0.95, 1, clock, { count: 1, windowMs: 1000 });
    const t0 = clock.now();
    const times: number[] = [];
    await budget.acquire();
    void budget.acquire().then(() => times.push(clock.now() - t0));
    await clock.advance(5000);
    expect(times).toEqual([]);
    expect(budget.inFlight).toBe(1);
    // The answer came back at 5000: the next goes a full window (and margin) later, not at once.
    budget.settled();
    await clock.advance(1000 + causalMarginMs - 1);
    expect(times).toEqual([]);
    await clock.advance(1);
    expect(times).toEqual([5000 + 1000 + causalMarginMs]);
  });

  it('spaces from the answer when the answer is slow, and by the interval when it is fast', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(0.95, 1, clock, { count: 1, windowMs: 1000 });
    const t0 = clock.now();
    const granted: number[] = [];
    // Each request is answered `rtt` ms after its grant.
    const run = async (rtt: number) => {
      await budget.acquire();
      granted.push(clock.now() - t0);
      budget.sent();
      clock.setTimeout(() => budget.settled(), rtt);
    };
    const all = Promise.all([run(10), run(300), run(10)]);
    while (granted.length < 3) await clock.advance(1);
    await all;
    // Second: the 1053 ms interval (1000 / 0.95) governs, as the answer came back at 10 (window to 1030).
    // Third: the second's answer came back 300 ms after its grant, so 1053 + 300 + 1000 + margin.
    const interval = Math.ceil(1000 / 0.95);
    expect(granted).toEqual([0, interval, interval + 300 + 1000 + causalMarginMs]);
  });

  it('keeps to the interval too (the safety factor), and is unaffected by settled() without a window', async () => {
    const clock = new ManualClock();
    const plain = new RateBudget(10, 1, clock);
    plain.settled();
    expect(plain.inFlight).toBe(0);
    const windowed = new RateBudget(0.5, 1, clock, { count: 1, windowMs: 1000 });
    const t0 = clock.now();
    const times: number[] = [];
    await windowed.acquire();
    windowed.sent();
    windowed.settled();
    void windowed.acquire().then(() => times.push(clock.now() - t0));
    await clock.advance(1999);
    expect(times).toEqual([]);
    await clock.advance(1);
    expect(times).toEqual([2000]);
  });
});

describe("RateBudget's prepare (the per-address reservation of a 1 request/s endpoint's request)", () => {
  it('starts it once the caller is next and the request before it was answered, and grants only after it', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(1, 1, clock, { count: 1, windowMs: 1000 });
    const t0 = clock.now();
    const started: string[] = [];
    const granted: string[] = [];
    let finishB: () => void = () => undefined;
    const prep = (name: string, until?: Promise<void>) => () => { started.push(`${name}@${clock.now() - t0}`); return until ?? Promise.resolve(); };
    const bDone = new Promise<void>((r) => (finishB = r));
    // Idle: the first caller's prepare runs at once, and its grant follows it.
    void budget.acquire(undefined, prep('a')).then(() => granted.push(`a@${clock.now() - t0}`));
    void budget.acquire(undefined, prep('b', bDone)).then(() => granted.push(`b@${clock.now() - t0}`));
    void budget.acquire(undefined, prep('c')).then(() => granted.push(`c@${clock.now() - t0}`));
    await clock.advance(0);
    expect([started, granted]).toEqual([['a@0'], ['a@0']]);
    // a is in flight: b's grant time is unknown, so its prepare waits (it would reserve a slot
    // it might not use for seconds).
    await clock.advance(400);
    expect(started).toEqual(['a@0']);
    // a's answer at 400: b's grant is due at 400 + 1000 + margin; its prepare starts now, c's not.
    budget.settled();
    await clock.advance(0);
    expect(started).toEqual(['a@0', 'b@400']);
    // The window opens, but b's prepare has not settled: no grant until it does.
    await clock.advance(1000 + causalMarginMs + 100);
    expect(granted).toEqual(['a@0']);
    finishB();
    await clock.advance(0);
    expect(granted).toEqual(['a@0', `b@${1500 + causalMarginMs}`]);
    expect(started).toEqual(['a@0', 'b@400']);
    budget.settled();
    await clock.advance(0);
    expect(started).toEqual(['a@0', 'b@400', `c@${1500 + causalMarginMs}`]);
    await clock.advance(1000 + causalMarginMs);
    expect(granted).toEqual(['a@0', `b@${1500 + causalMarginMs}`, `c@${2500 + 2 * causalMarginMs}`]);
  });

  it('grants after a prepare that failed, and ignores prepare without a causal window', async () => {
    const clock = new ManualClock();
    const windowed = new RateBudget(1, 1, clock, { count: 1, windowMs: 1000 });
    let granted = false;
    void windowed.acquire(undefined, () => Promise.reject(new Error('store down'))).then(() => (granted = true));
    await clock.advance(0);
    expect(granted).toBe(true);
    const plain = new RateBudget(10, 1, clock);
    let called = false;
    await plain.acquire(undefined, async () => { called = true; });
    expect(called).toBe(false);
  });

  it('drops an aborted caller whose prepare is running and starts the next one', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget(1, 1, clock, { count: 1, windowMs: 1000 });
    const started: string[] = [];
    await budget.acquire();
    budget.settled();
    const abort = new AbortController();
    const a = budget.acquire(abort.signal, () => { started.push('a'); return new Promise<void>(() => undefined); });
    let bGranted = false;
    void budget.acquire(undefined, async () => { started.push('b'); }).then(() => (bGranted = true));
    await clock.advance(0);
    expect(started).toEqual(['a']);
    abort.abort(new Error('stopped'));
    await expect(a).rejects.toThrow('stopped');
    await clock.advance(1000 + causalMarginMs);
    expect([started, bGranted]).toEqual([['a', 'b'], true]);
  });
});

describe('RateBudgets', () => {
  it('gives its budgets its clock (the real one by default)', async () => {
    expect(new RateBudgets().get('1001', 'deposits', 9).now()).toBeGreaterThan(1_700_000_000_000);
    const clock = new ManualClock(5_000);
    const budget = new RateBudgets(clock).get('1001', 'deposits', 10);
    expect(budget.now()).toBe(5_000);
    await budget.acquire();
    let granted = false;
    void budget.acquire().then(() => (granted = true));
    await clock.advance(74);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  it('gives one budget per (UID, endpoint)', () => {
    const budgets = new RateBudgets();
    const a = budgets.get('1001', 'marginRecords', 0.9);
    expect(budgets.get('1001', 'marginRecords', 0.9)).toBe(a);
    expect(budgets.get('1002', 'marginRecords', 0.9)).not.toBe(a);
    expect(budgets.get('1001', 'deposits', 9)).not.toBe(a);
    expect(a.ratePerSecond).toBe(0.9);
  });
});
