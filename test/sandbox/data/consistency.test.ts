import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { anchor } from './tinyWorld.js';

const world = createWorld({ seed: 8, scale: 'small', now: anchor });
const main = world.accounts[0]!;

describe('fills belong to orders', () => {
  it('most spot fills belong to a traded spot order, at most one fill per order, with its volume and time order', () => {
    const orders = world.series(main.uid, 'spotOrders', 'all');
    const fills = [...world.series(main.uid, 'spotFills', 'all').all()];
    const linked = fills.filter((f) => orders.get(f.orderId) !== undefined);
    expect(linked.length).toBeGreaterThan(fills.length * 0.6);
    expect(new Set(linked.map((f) => f.orderId)).size).toBe(linked.length);
    for (const f of linked) {
      const o = orders.get(f.orderId)!;
      expect([f.symbol, f.side, f.size, f.amount, f.priceAvg]).toEqual([o.symbol, o.side, o.baseVolume, o.quoteVolume, o.priceAvg]);
      expect(Number(f.cTime)).toBeGreaterThanOrEqual(Number(o.cTime));
      if (o.feeDetail.includes('"deduction":true')) expect(f.feeDetail.feeCoin).toBe('BGB');
    }
  });

  it('futures fills belong to filled futures orders of the same product type', () => {
    for (const pt of ['USDT-FUTURES', 'COIN-FUTURES']) {
      const orders = world.series(main.uid, 'futuresOrders', pt);
      const fills = [...world.series(main.uid, 'futuresFills', pt).all()];
      const linked = fills.filter((f) => orders.get(f.orderId) !== undefined);
      expect(linked.length).toBeGreaterThan(fills.length * 0.4);
      for (const f of linked) {
        const o = orders.get(f.orderId)!;
        expect(o.status).toBe('filled');
        expect([f.symbol, f.baseVolume, f.tradeSide, f.feeDetail[0]!.totalFee]).toEqual([o.symbol, o.baseVolume, o.tradeSide, o.fee]);
      }
    }
  });

  it('a spot order that settles leaves a fill for the volume it had left', () => {
    const w = createWorld({ seed: 8, scale: 'tiny', now: anchor });
    const uid = w.accounts[0]!.uid;
    const partial = [...w.series(uid, 'spotOrders', 'all').all()].find((o) => o.status === 'partially_filled')!;
    expect(w.settle(uid, 'spotOrders', partial.orderId)).toBe(true);
    const fill = w.series(uid, 'spotFills', 'all').query({ limit: 1 })[0]!;
    expect(fill.orderId).toBe(partial.orderId);
    expect(new Decimal(fill.size).plus(partial.baseVolume).eq(partial.size)).toBe(true);
    expect(fill.cTime).toBe(String(anchor));
  });
});
