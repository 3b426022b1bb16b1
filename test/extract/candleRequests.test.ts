import { describe, expect, it } from 'vitest';
import { candleCells, candleRequests } from '../../src/extract/candleRequests.js';

const H = 3_600_000;
const t0 = Date.UTC(2025, 0, 1);

describe('candleRequests', () => {
  it('covers every needed hour with the fewest 200-hour requests, newest first', () => {
    const hours = [t0, t0 + 5 * H, t0 + 199 * H, t0 + 200 * H, t0 + 1000 * H];
    const q = candleRequests('BTCUSDT', hours, 200);
    expect(q).toEqual([
      { symbol: 'BTCUSDT', endTime: t0 + 1001 * H, from: t0 + 801 * H },
      { symbol: 'BTCUSDT', endTime: t0 + 201 * H, from: t0 + 1 * H },
      { symbol: 'BTCUSDT', endTime: t0 + 1 * H, from: t0 - 199 * H },
    ]);
    for (const h of hours) expect(q.some((r) => h >= r.from && h < r.endTime), String(h)).toBe(true);
  });

  it('asks nothing when no hour is needed, and once for hours that fit one request', () => {
    expect(candleRequests('ETHUSDT', [], 200)).toEqual([]);
    expect(candleRequests('ETHUSDT', [t0 + 3 * H, t0, t0 + 3 * H], 200)).toHaveLength(1);
  });
});

describe('candleCells', () => {
  const cell = 200 * H;
  const c0 = Math.floor(t0 / cell) * cell; // a cell's start

  it('asks once per 200-hour cell of the fixed grid that holds a needed hour, newest first, covering each hour', () => {
    const hours = [c0, c0 + 199 * H, c0 + 200 * H, c0 + 1000 * H, c0 + 5 * H];
    const q = candleCells('BTCUSDT', hours, 200, c0 + 100_000 * H);
    expect(q).toEqual([
      { symbol: 'BTCUSDT', from: c0 + 1000 * H, endTime: c0 + 1200 * H },
      { symbol: 'BTCUSDT', from: c0 + 200 * H, endTime: c0 + 400 * H },
      { symbol: 'BTCUSDT', from: c0, endTime: c0 + 200 * H },
    ]);
    for (const h of hours) expect(q.some((r) => h >= r.from && h < r.endTime), String(h)).toBe(true);
  });

  it('gives the same requests however the hours arrive: the cells of two passes are the cells of one', () => {
    const all = Array.from({ length: 300 }, (_, i) => c0 + ((i * 7919) % 3000) * H);
    const one = candleCells('ETHUSDT', all, 200, c0 + 10_000 * H);
    const first = candleCells('ETHUSDT', all.filter((_, i) => i % 3 === 0), 200, c0 + 10_000 * H);
    const second = candleCells('ETHUSDT', all.filter((_, i) => i % 3 !== 0), 200, c0 + 10_000 * H);
    const key = (r: { from: number }) => r.from;
    expect(new Set([...first, ...second].map(key))).toEqual(new Set(one.map(key)));
    // Greedy ranges built pass by pass overlap, and ask more than one pass would.
    const greedy = candleRequests('ETHUSDT', all.filter((_, i) => i % 3 === 0), 200).length + candleRequests('ETHUSDT', all.filter((_, i) => i % 3 !== 0), 200).length;
    expect(greedy).toBeGreaterThan(candleRequests('ETHUSDT', all, 200).length);
  });

  it('ends the newest request with the hour still running', () => {
    const running = c0 + 50 * H;
    expect(candleCells('BTCUSDT', [c0 + 10 * H, running], 200, running + H)).toEqual([{ symbol: 'BTCUSDT', from: c0, endTime: running + H }]);
    expect(candleCells('BTCUSDT', [], 200, running + H)).toEqual([]);
  });
});
