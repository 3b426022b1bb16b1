import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { historyResources } from '../../../src/sandbox/data/scalePlan.js';
import { resourceKeys } from '../../../src/sandbox/data/resourceKeys.js';
import { anchor, tinyWorld } from './tinyWorld.js';

const DAY = 86_400_000;

describe('advance and settle', () => {
  it('moves the clock and appends records after the old now, at about the same density', () => {
    const w = createWorld({ seed: 2, scale: 'small', now: anchor });
    const uid = w.accounts[0]!.uid;
    const s = w.series(uid, 'spotOrders', 'all');
    const before = s.size;
    const lastId = BigInt([...s.all()][before - 1]!.orderId);
    w.advance(73 * DAY);
    expect(w.now()).toBe(anchor + 73 * DAY);
    const added = [...s.all()].slice(before);
    // 10% of 730 days of history should add about 10% more records.
    expect(added.length).toBeGreaterThan(before * 0.08);
    expect(added.length).toBeLessThan(before * 0.12);
    for (const o of added) {
      expect(BigInt(o.orderId) > lastId).toBe(true);
      expect(Number(o.cTime)).toBeGreaterThan(anchor);
      expect(Number(o.cTime)).toBeLessThanOrEqual(anchor + 73 * DAY);
    }
  });

  it('grows every resource that has data and keeps idLessThan paging exact', () => {
    const w = tinyWorld(4, 'small');
    const uid = w.accounts[0]!.uid;
    const sizes = historyResources.map((r) => w.series(uid, r, w.partitions(r)[0]!).size);
    w.advance(40 * DAY);
    historyResources.forEach((r, k) => {
      const s = w.series(uid, r, w.partitions(r)[0]!);
      expect(s.size, r).toBeGreaterThan(sizes[k]!);
      const idField = resourceKeys[r].id;
      const all = [...s.all()].map((x) => (x as unknown as Record<string, string>)[idField]!);
      const paged: string[] = [];
      let cursor: bigint | undefined;
      for (;;) {
        const page = s.query({ limit: 50, ...(cursor === undefined ? {} : { idLessThan: cursor }) }).map((x) => (x as unknown as Record<string, string>)[idField]!);
        paged.push(...page);
        if (page.length < 50) break;
        cursor = BigInt(page[page.length - 1]!);
      }
      expect(paged.reverse()).toEqual(all);
    });
  });

  it('many small advances add as many records as one big one', () => {
    const big = createWorld({ seed: 3, scale: 'taxSpotRecords=50000', now: anchor });
    const small = createWorld({ seed: 3, scale: 'taxSpotRecords=50000', now: anchor });
    big.advance(10 * DAY);
    for (let i = 0; i < 240; i++) small.advance(3_600_000);
    expect(small.now()).toBe(big.now());
    for (const a of big.accounts) {
      const b = big.series(a.uid, 'taxSpotRecords', 'all').size;
      const s = small.series(a.uid, 'taxSpotRecords', 'all').size;
      expect(Math.abs(b - s), a.uid).toBeLessThanOrEqual(1);
    }
    expect(big.series(big.accounts[0]!.uid, 'taxSpotRecords', 'all').size).toBeGreaterThan(50_600);
  });

  it('settles open records older than the open window, changing uTime', () => {
    const w = tinyWorld(6);
    const uid = w.accounts[0]!.uid;
    const openBefore = (res: 'deposits' | 'withdrawals') => [...w.series(uid, res, 'all').all()].filter((r) => r.status === 'pending');
    const pending = openBefore('deposits');
    expect(pending.length).toBeGreaterThan(0);
    const liveOrders = [...w.series(uid, 'spotOrders', 'all').all()].filter((o) => o.status === 'live');
    expect(liveOrders.length).toBeGreaterThan(0);
    w.advance(3 * DAY);
    for (const d of pending) {
      const now = w.series(uid, 'deposits', 'all').get(d.orderId)!;
      expect(now.status).toBe('success');
      expect(now.uTime).toBe(String(anchor + 3 * DAY));
    }
    for (const o of liveOrders) expect(w.series(uid, 'spotOrders', 'all').get(o.orderId)!.status).toBe('filled');
    const processing = [...w.series(uid, 'transfers', 'all').all()].filter((t) => t.status === 'Processing' && Number(t.ts) < anchor);
    expect(processing).toEqual([]);
  });

  it('settle() settles one record and reports whether it changed anything', () => {
    const w = tinyWorld(6);
    const uid = w.accounts[0]!.uid;
    const r = w.withdraw(uid, { coin: 'BTC', transferType: 'internal_transfer', address: '77', size: '0.05' });
    expect(w.settle(uid, 'withdrawals', r.orderId)).toBe(true);
    expect(w.series(uid, 'withdrawals', 'all').get(r.orderId)!.status).toBe('success');
    expect(w.settle(uid, 'withdrawals', r.orderId)).toBe(false);
    expect(w.settle(uid, 'withdrawals', '1')).toBe(false);
    const o = w.placeSpotOrder(uid, { symbol: 'BTCUSDT', side: 'sell', orderType: 'limit', force: 'gtc', price: '99000', size: '0.5' });
    w.advance(1000);
    expect(w.settle(uid, 'spotOrders', o.orderId)).toBe(true);
    const filled = w.series(uid, 'spotOrders', 'all').get(o.orderId)!;
    expect(filled).toMatchObject({ status: 'filled', baseVolume: '0.5', quoteVolume: '49500.00000000', uTime: String(anchor + 1000) });
    expect(filled.feeDetail).toContain('"t":-39.6');
    const processing = [...w.truth()].find((t) => t.resource === 'transfers' && (t.record as { status: string }).status === 'Processing')!;
    expect(w.settle(processing.uid, 'transfers', processing.id)).toBe(true);
    expect(w.series(processing.uid, 'transfers', 'all').get(processing.id)!.status).toBe('Successful');
  });

  it('truth() lists every record once, keyed by (uid, resource, partition, id)', () => {
    const w = tinyWorld(9);
    const keys = new Set<string>();
    let n = 0;
    for (const t of w.truth()) {
      keys.add(`${t.uid}|${t.resource}|${t.partition}|${t.id}`);
      expect((t.record as Record<string, string>)[resourceKeys[t.resource].id]).toBe(t.id);
      n++;
    }
    expect(keys.size).toBe(n);
    const total = w.accounts.reduce((sum, a) => sum + historyResources.reduce((s, r) => s + w.partitions(r).reduce((p, part) => p + w.series(a.uid, r, part).size, 0), 0), 0);
    expect(n).toBe(total);
  });
});
