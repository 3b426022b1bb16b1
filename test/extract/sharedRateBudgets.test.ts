import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { causalRate, ExchangeClient, priorityIpBurst } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { PgRateStore } from '../../src/extract/pgRateStore.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { ManualClock } from '../support/manualClock.js';
import { standardKeys, startTestSandbox, type RunningSandbox } from '../support/sandbox.js';

// Issue 23: the exchange limits its public endpoints per IP, so every process on one address
// must spend one budget. These tests count what the sandbox answered (never elapsed time): two
// real processes over the PostgreSQL-held budget get zero 429s, and the same two processes each
// with its own budget do get them. The store's own arithmetic runs on a hand-moved clock.

const clientScript = fileURLToPath(new URL('./publicBudgetClient.ts', import.meta.url));

let fresh: FreshDatabase;
let sandbox: RunningSandbox;
beforeAll(async () => {
  fresh = await freshDatabase();
  sandbox = await startTestSandbox({ rateLimit: true });
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

/** What the sandbox counted for X10 (publicSymbols) from loopback: requests and 429s. */
function publicCounts(): { requests: number; limited: number } {
  return { requests: sandbox.stats.requests.X10?.['ip:127.0.0.1'] ?? 0, limited: sandbox.stats.rateLimited.X10?.['ip:127.0.0.1'] ?? 0 };
}

/** Starts `processes` client processes, lets them go at once, and returns their tallies. */
async function runProcesses(processes: number, count: number, shared: boolean, address: string): Promise<{ ok: number; failed: string[] }[]> {
  const children = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', clientScript], {
      env: { ...process.env, DATABASE_URL: fresh.url, BASE_URL: sandbox.baseUrl, COUNT: String(count), SHARED: shared ? '1' : '0', ADDRESS: address },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout });
    const output: string[] = [];
    const ready = new Promise<void>((resolve) => lines.on('line', (l) => (l === 'ready' ? resolve() : output.push(l))));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, ready, exited, output };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.write('go\n');
  const codes = await Promise.all(children.map((c) => c.exited));
  expect(codes).toEqual(children.map(() => 0));
  return children.map((c) => JSON.parse(c.output.at(-1) ?? '{}') as { ok: number; failed: string[] });
}

describe('public rate budgets shared by every process on one address', () => {
  it('two processes over the database-held budget: every request counted by the sandbox, zero 429s', async () => {
    const before = publicCounts();
    const tallies = await runProcesses(2, 40, true, 'shared-test-host');
    const after = publicCounts();
    expect(tallies.map((t) => t.failed)).toEqual([[], []]);
    expect(after.requests - before.requests).toBe(80);
    expect(after.limited - before.limited).toBe(0);
  });

  it('the same two processes each with its own budget: the sandbox answers 429 (what the shared budget prevents)', async () => {
    // Each runs at 95% of the 20/s limit, so together nearly twice it: the sandbox's bucket of 20
    // empties within about a second. The budget is fresh (its first second's 20 tokens) here
    // because the previous test's last request was more than a second ago.
    const before = publicCounts();
    const tallies = await runProcesses(2, 40, false, 'unused');
    const after = publicCounts();
    expect(after.requests - before.requests).toBe(80);
    expect(after.limited - before.limited).toBeGreaterThan(0);
    expect(tallies.flatMap((t) => t.failed).every((code) => code === 'API_429')).toBe(true);
  });
});

describe('PgRateStore', () => {
  it('reserves slots one interval apart across stores of one address, and apart from another address', async () => {
    const clock = new ManualClock(5_000_000);
    const a = new PgRateStore(fresh.db, 'host-a', clock);
    const a2 = new PgRateStore(fresh.db, 'host-a', clock);
    const b = new PgRateStore(fresh.db, 'host-b', clock);
    const slot = [{ key: 'public@http://x|publicSymbols', intervalMs: 100, burst: 1 }];
    expect([await a.reserve(slot), await a2.reserve(slot), await a.reserve(slot), await b.reserve(slot)]).toEqual([0, 100, 200, 0]);
    await clock.advance(250);
    // Due at 300 (three reserved from 0); 50 ms from now.
    expect(await a2.reserve(slot)).toBe(50);
  });

  it('reserves one slot that every named budget allows, and spends it in all of them', async () => {
    const clock = new ManualClock(6_000_000);
    const store = new PgRateStore(fresh.db, 'host-c', clock);
    const ip = { key: 'ip@http://x', intervalMs: 10, burst: 1 };
    const slow = { key: 'public@http://x|publicCoins', intervalMs: 350, burst: 1 };
    expect(await store.reserve([slow, ip])).toBe(0);
    // The slow budget's next slot (350) governs, and the ip budget's schedule moves past it.
    expect(await store.reserve([ip, slow])).toBe(350);
    expect(await store.reserve([ip])).toBe(360);
  });

  it('a pause (a 429, for its Retry-After) holds every process of the address, and only it', async () => {
    const clock = new ManualClock(7_000_000);
    const one = new PgRateStore(fresh.db, 'host-d', clock);
    const other = new PgRateStore(fresh.db, 'host-d', clock);
    const elsewhere = new PgRateStore(fresh.db, 'host-e', clock);
    const slot = [{ key: 'public@http://x|marketCandles', intervalMs: 50, burst: 1 }];
    expect(await other.reserve(slot)).toBe(0);
    await one.pause('public@http://x|marketCandles', 3000);
    expect(await other.reserve(slot)).toBe(3000);
    expect(await elsewhere.reserve(slot)).toBe(0);
    // A shorter pause never shortens a longer one.
    await one.pause('public@http://x|marketCandles', 10);
    await clock.advance(1000);
    expect(await other.reserve(slot)).toBe(2050);
  });

  it("feeds the exchange's 429 and Retry-After on a public endpoint into the shared row", async () => {
    const clock = new ManualClock(8_000_000);
    await fetch(`${sandbox.baseUrl}/_sandbox/retry-after`, { method: 'POST', body: JSON.stringify({ seconds: 4 }) });
    try {
      // An unbudgeted client empties the sandbox's per-IP bucket for coins (3/s) ...
      const rogue = new ExchangeClient({ baseUrl: sandbox.baseUrl, budgetKey: 'rogue', rateLimit: false, maxRetries: 0 });
      await Promise.allSettled(Array.from({ length: 6 }, () => rogue.request('publicCoins', {}, undefined, { retry: false })));
      await rogue.close();
      // ... so the budgeted one meets a 429 carrying Retry-After: 4, and its row pauses 4000 ms.
      const budgets = new RateBudgets(clock, new PgRateStore(fresh.db, 'host-f', clock));
      const client = new ExchangeClient({ baseUrl: sandbox.baseUrl, budgetKey: 'budgeted', budgets, maxRetries: 0 });
      await expect(client.request('publicCoins', {}, undefined, { retry: false })).rejects.toMatchObject({ code: 'API_429' });
      await client.close();
      const { rows } = await sql<{ paused: number }>`SELECT paused_until_ms - ${clock.now()}::double precision AS paused FROM rate_budgets WHERE key = ${`host-f|public@${sandbox.baseUrl}|publicCoins`}`.execute(fresh.db);
      expect(rows.map((r) => r.paused)).toEqual([4000]);
    } finally {
      await fetch(`${sandbox.baseUrl}/_sandbox/retry-after`, { method: 'POST', body: JSON.stringify({ seconds: null }) });
    }
  });
});

describe('the per-address budget: who may go ahead of its queue', () => {
  // The fast streams fill the per-address budget (95% of 6,000/minute) in a first sync's first
  // half; the requests of the budgets that set the run's length (the 1 request/s endpoints, the
  // public candles) may go up to priorityIpBurst requests ahead of that queue, and still count.
  it("an E5 and a public request go ahead of 60 queued requests; a fast endpoint's waits its turn", async () => {
    const clock = new ManualClock(9_000_000);
    const store = new PgRateStore(fresh.db, 'host-g', clock);
    const budgets = new RateBudgets(clock, store);
    // A sandbox of its own without limits: the tests above emptied this one's public buckets,
    // and a 429 would pause a budget on a clock that stands still. The client's budgets are
    // what is tested here.
    const own = await startTestSandbox({ rateLimit: false });
    const { main } = standardKeys(own);
    const client = new ExchangeClient({ baseUrl: own.baseUrl, budgetKey: main.uid, budgets, maxRetries: 0, credentials: { apiKey: main.apiKey, secretKey: main.secretKey, passphrase: main.passphrase, demo: false } });
    try {
      // Other processes on this address hold the next 60 slots of its overall budget.
      const ip = { key: `ip@${new URL(own.baseUrl).origin}`, intervalMs: 1000 / 95, burst: 1 };
      for (let i = 0; i < 60; i++) await store.reserve([ip]);
      const done: string[] = [];
      const end = Date.now() - 60_000;
      const e5 = client.request('marginRecords', { startTime: String(end - 86_400_000), endTime: String(end) }).then(() => done.push('E5'));
      const coins = client.request('publicCoins', {}).then(() => done.push('X9'));
      const fills = client.request('spotFills', { limit: '1' }).then(() => done.push('fills'));
      // The simulated clock stands still: what goes now went ahead of the 60. (Real time only
      // bounds how long a failure takes to show: a request held in the queue never comes.)
      for (let i = 0; i < 1200 && done.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 100));
      expect(done.sort()).toEqual(['E5', 'X9']);
      await Promise.all([e5, coins]);
      // The fills request waits behind the 60 and the two that went ahead (each counted one slot).
      await clock.advance(Math.floor(61 * ip.intervalMs));
      await new Promise((r) => setTimeout(r, 100));
      expect(done).not.toContain('fills');
      await clock.advance(Math.ceil(2 * ip.intervalMs));
      await fills;
      expect(done).toContain('fills');
      expect(priorityIpBurst).toBeGreaterThan(60);
    } finally {
      await client.close();
      await own.close();
    }
  });

  it('paces a 1 request/s endpoint at its full rate at the default safety factor, slower below it', () => {
    // Its causal window (a second plus a margin after the previous answer) is its margin.
    expect(causalRate(1, 0.95)).toBe(1);
    expect(causalRate(1, 1)).toBe(1);
    expect(causalRate(1, 0.475)).toBeCloseTo(0.5, 12);
  });
});
