import { describe, expect, it } from 'vitest';
import { resourceKeys } from '../../../src/sandbox/data/resourceKeys.js';
import { historyResources } from '../../../src/sandbox/data/scalePlan.js';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { anchor } from './tinyWorld.js';

const DAY = 86_400_000;
const world = createWorld({ seed: 5, scale: 'small', now: anchor });
const main = world.accounts[0]!;

/** Pages a series by idLessThan, as a client would, collecting ids. */
function pageAll(resource: (typeof historyResources)[number], partition: string, q: { startTime?: number; endTime?: number }, limit: number): string[] {
  const s = world.series(main.uid, resource, partition);
  const idField = resourceKeys[resource].id;
  const ids: string[] = [];
  let cursor: bigint | undefined;
  for (;;) {
    const page = s.query({ ...q, limit, ...(cursor === undefined ? {} : { idLessThan: cursor }) }) as unknown as Record<string, string>[];
    for (const r of page) ids.push(r[idField]!);
    if (page.length < limit) return ids;
    cursor = BigInt(page[page.length - 1]![idField]!);
  }
}

describe('series paging', () => {
  it('pages every resource and partition by idLessThan, returning each record exactly once', () => {
    for (const resource of historyResources) {
      for (const partition of world.partitions(resource)) {
        const s = world.series(main.uid, resource, partition);
        const idField = resourceKeys[resource].id;
        const expected = [...s.all()].map((r) => (r as unknown as Record<string, string>)[idField]).reverse();
        expect(pageAll(resource, partition, {}, 37)).toEqual(expected);
      }
    }
  });

  it('pages a 30-day window exactly as the records in [start, end) are', () => {
    const start = anchor - 200 * DAY;
    const end = start + 30 * DAY;
    const s = world.series(main.uid, 'spotOrders', 'all');
    const inWindow = [...s.all()].filter((r) => Number(r.cTime) >= start && Number(r.cTime) < end).map((r) => r.orderId).reverse();
    expect(inWindow.length).toBeGreaterThan(20);
    expect(pageAll('spotOrders', 'all', { startTime: start, endTime: end }, 20)).toEqual(inWindow);
  });

  it('treats startTime as inclusive and endTime as exclusive', () => {
    const s = world.series(main.uid, 'deposits', 'all');
    const all = [...s.all()];
    const t = Number(all[40]!.cTime);
    const atT = all.filter((r) => Number(r.cTime) === t).map((r) => r.orderId);
    const from = s.query({ startTime: t, endTime: t + 1, limit: 100 }).map((r) => r.orderId);
    expect(from.sort()).toEqual(atT.sort());
    expect(s.query({ startTime: t, endTime: t, limit: 100 })).toEqual([]);
    expect(s.query({ endTime: t, limit: 1 })[0]!.cTime).not.toBe(String(t));
  });

  it('answers newest first, with ids that grow with time and some shared timestamps', () => {
    const s = world.series(main.uid, 'spotFills', 'all');
    const page = s.query({ limit: 500 });
    for (let i = 1; i < page.length; i++) {
      expect(BigInt(page[i - 1]!.tradeId) > BigInt(page[i]!.tradeId)).toBe(true);
      expect(Number(page[i - 1]!.cTime)).toBeGreaterThanOrEqual(Number(page[i]!.cTime));
    }
    const times = page.map((r) => r.cTime);
    expect(new Set(times).size).toBeLessThan(times.length);
    for (const r of page) expect(r.tradeId).toMatch(/^\d{19}$/);
  });

  it('spans about two years before now, nothing after it', () => {
    const s = world.series(main.uid, 'spotOrders', 'all');
    const all = [...s.all()];
    expect(Number(all[0]!.cTime)).toBeLessThan(anchor - 700 * DAY);
    expect(Number(all[all.length - 1]!.cTime)).toBeLessThan(anchor);
    expect(Number(all[all.length - 1]!.cTime)).toBeGreaterThan(anchor - DAY);
  });

  it('keeps pending trigger orders recent, inside the 90 days E11 can see', () => {
    const plans = [...world.series(main.uid, 'planOrders', 'USDT-FUTURES').all()];
    expect(plans.length).toBeGreaterThan(10);
    for (const p of plans) expect(Number(p.cTime)).toBeGreaterThanOrEqual(anchor - 60 * DAY);
  });

  it('applies the filter server-side and still honours the limit', () => {
    const s = world.series(main.uid, 'spotOrders', 'all');
    const btc = s.query({ limit: 10, filter: (r) => r.symbol === 'BTCUSDT' });
    expect(btc).toHaveLength(10);
    for (const r of btc) expect(r.symbol).toBe('BTCUSDT');
  });

  it('finds a record by id and answers undefined for unknown or malformed ids', () => {
    const s = world.series(main.uid, 'withdrawals', 'all');
    const r = [...s.all()][17]!;
    expect(s.get(r.orderId)).toEqual(r);
    expect(s.get('123')).toBeUndefined();
    expect(s.get('not-a-number')).toBeUndefined();
  });

  it('keeps the demo account to demo product types and others to real ones', () => {
    const demo = world.accounts.find((a) => a.demo)!;
    expect(world.series(demo.uid, 'futuresOrders', 'SUSDT-FUTURES').size).toBeGreaterThan(0);
    expect(world.series(demo.uid, 'futuresOrders', 'USDT-FUTURES').size).toBe(0);
    expect(world.series(demo.uid, 'spotOrders', 'all').size).toBe(0);
    expect(world.series(main.uid, 'futuresOrders', 'SUSDT-FUTURES').size).toBe(0);
    expect(world.series('0', 'spotOrders', 'all').size).toBe(0);
  });
});
