import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';

const HOUR = 3_600_000;
let sandbox: RunningSandbox;

beforeAll(async () => { sandbox = await startTestSandbox(); });
afterAll(() => sandbox.close());

async function get(path: string, query: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.baseUrl}${path}?${new URLSearchParams(query).toString()}`);
  return { status: res.status, body: await res.json() };
}

describe('market candles (X11, X12)', () => {
  it('every spot fill price lies within the low..high of its 1h candle', async () => {
    const fills: { symbol: string; t: number; price: string }[] = [];
    for (const a of sandbox.world.accounts) {
      if (a.demo) continue;
      for (const f of sandbox.world.series(a.uid, 'spotFills', 'all').all()) {
        if (/^\d+(\.\d+)?$/.test(f.priceAvg)) fills.push({ symbol: f.symbol, t: Number(f.cTime), price: f.priceAvg });
      }
    }
    expect(fills.length).toBeGreaterThan(20);
    const bySymbol = new Map<string, typeof fills>();
    for (const f of fills) bySymbol.set(f.symbol, [...(bySymbol.get(f.symbol) ?? []), f]);
    let checked = 0;
    for (const [symbol, list] of bySymbol) {
      const candles = new Map<number, string[]>();
      // history-candles walks back 200 hours at a time from the newest fill.
      const oldest = Math.min(...list.map((f) => f.t));
      let end = Math.max(...list.map((f) => f.t)) + HOUR;
      while (end > oldest) {
        const r = await get('/api/v2/spot/market/history-candles', { symbol, granularity: '1h', endTime: String(end), limit: '200' });
        expect(r.body.code).toBe('00000');
        for (const c of r.body.data as string[][]) candles.set(Number(c[0]), c);
        end = Number(r.body.data[0][0]);
      }
      for (const f of list) {
        const c = candles.get(Math.floor(f.t / HOUR) * HOUR);
        expect(c, `${symbol} candle at ${f.t}`).toBeDefined();
        const p = new Decimal(f.price);
        expect(p.gte(c![3]!) && p.lte(c![2]!), `${symbol} fill ${f.price} within ${c![3]}..${c![2]}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(fills.length);
  });

  it('answers arrays of 8 strings, oldest first, one candle length apart, open and close within low..high', async () => {
    const r = await get('/api/v2/spot/market/candles', { symbol: 'ETHBTC', granularity: '4h', limit: '50' });
    const data = r.body.data as string[][];
    expect(data).toHaveLength(50);
    for (let i = 0; i < data.length; i++) {
      const c = data[i]!;
      expect(c.every((x) => typeof x === 'string')).toBe(true);
      if (i > 0) expect(Number(c[0]) - Number(data[i - 1]![0])).toBe(4 * HOUR);
      const [low, high] = [new Decimal(c[3]!), new Decimal(c[2]!)];
      expect(new Decimal(c[1]!).gte(low) && new Decimal(c[1]!).lte(high)).toBe(true);
      expect(new Decimal(c[4]!).gte(low) && new Decimal(c[4]!).lte(high)).toBe(true);
    }
  });

  it('reaches back only 83 days for 1h candles; history-candles reaches further', async () => {
    const old = String(Date.now() - 120 * 86_400_000);
    const recent = await get('/api/v2/spot/market/candles', { symbol: 'BTCUSDT', granularity: '1h', startTime: old, endTime: String(Number(old) + 10 * HOUR) });
    expect(recent.body.data).toEqual([]);
    const hist = await get('/api/v2/spot/market/history-candles', { symbol: 'BTCUSDT', granularity: '1h', endTime: String(Number(old) + 10 * HOUR), limit: '10' });
    expect(hist.body.data).toHaveLength(10);
  });

  it('refuses a limit over the maximum, a missing endTime, an unknown granularity or symbol', async () => {
    expect((await get('/api/v2/spot/market/candles', { symbol: 'BTCUSDT', granularity: '1h', limit: '1001' })).body.code).toBe('40017');
    expect((await get('/api/v2/spot/market/history-candles', { symbol: 'BTCUSDT', granularity: '1h', limit: '201', endTime: String(Date.now()) })).body.code).toBe('40017');
    expect((await get('/api/v2/spot/market/history-candles', { symbol: 'BTCUSDT', granularity: '1h' })).body.code).toBe('40019');
    expect((await get('/api/v2/spot/market/candles', { symbol: 'BTCUSDT', granularity: '2h' })).body.code).toBe('40017');
    expect((await get('/api/v2/spot/market/candles', { symbol: 'NOPEUSDT', granularity: '1h' })).body.code).toBe('40034');
    // Both doc spellings work.
    expect((await get('/api/v2/spot/market/candles', { symbol: 'BTCUSDT', granularity: '1H', limit: '2' })).body.data).toHaveLength(2);
  });

  it('limits each IP to 20 requests per second', async () => {
    // The limiter's clock stands still, so the 30 requests count within one instant however long
    // a busy machine takes to serve them (at arrival time, 50 ms of serving refilled a token: flaky).
    const limited = await startTestSandbox({ rateLimit: true, rateClock: () => 1000 });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () =>
        fetch(`${limited.baseUrl}/api/v2/spot/market/candles?symbol=BTCUSDT&granularity=1h&limit=1`).then((r) => r.status)));
      expect(answers.filter((s) => s === 429).length).toBe(10);
      expect(answers.filter((s) => s === 200).length).toBe(20);
    } finally {
      await limited.close();
    }
  });
});
