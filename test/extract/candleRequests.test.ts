import { describe, expect, it } from 'vitest';
import { candleRequests } from '../../src/extract/candleRequests.js';

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
