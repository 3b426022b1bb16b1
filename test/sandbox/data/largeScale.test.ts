import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { anchor } from './tinyWorld.js';

const DAY = 86_400_000;

// The million-record figures live in test/bench/sandboxScale.bench.ts; this checks the same
// machinery at a size that stays quick: records are built on demand, never stored.
describe('large worlds', () => {
  it('holds 200,000 spot orders per account lazily and answers window queries at both ends', () => {
    const w = createWorld({ seed: 1, scale: 'spotOrders=200000', now: anchor });
    const uid = w.accounts[0]!.uid;
    const s = w.series(uid, 'spotOrders', 'all');
    expect(s.size).toBe(200_000);
    const newest = s.query({ limit: 100 });
    expect(newest).toHaveLength(100);
    const old = s.query({ startTime: anchor - 700 * DAY, endTime: anchor - 690 * DAY, limit: 100 });
    expect(old).toHaveLength(100);
    for (const o of old) expect(Number(o.cTime)).toBeLessThan(anchor - 690 * DAY);
    // Paging one 90-day window by idLessThan gives exactly the window's records, each once.
    const start = anchor - 400 * DAY;
    const end = start + 90 * DAY;
    const seen = new Set<string>();
    let cursor: bigint | undefined;
    let pages = 0;
    for (;;) {
      const page = s.query({ startTime: start, endTime: end, limit: 100, ...(cursor === undefined ? {} : { idLessThan: cursor }) });
      pages++;
      for (const o of page) seen.add(o.orderId);
      if (page.length < 100) break;
      cursor = BigInt(page[page.length - 1]!.orderId);
    }
    const expected = Math.round((200_000 * 90) / 730);
    expect(seen.size).toBeGreaterThan(expected * 0.98);
    expect(seen.size).toBeLessThan(expected * 1.02);
    expect(pages).toBe(Math.floor(seen.size / 100) + 1);
  });

  it('a large preset builds without generating records', () => {
    const w = createWorld({ seed: 1, scale: 'large', now: anchor });
    let total = 0;
    for (const a of w.accounts) {
      for (const r of ['spotOrders', 'spotFills', 'futuresOrders', 'transfers'] as const) {
        for (const p of w.partitions(r)) total += w.series(a.uid, r, p).size;
      }
    }
    expect(total).toBeGreaterThan(400_000);
    const uid = w.accounts[0]!.uid;
    expect(w.series(uid, 'spotFills', 'all').query({ limit: 1 })).toHaveLength(1);
  });
});
