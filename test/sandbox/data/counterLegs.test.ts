import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import type { World } from '../../../src/sandbox/world.js';
import type { AccountType } from '../../../src/api/records/wallet.js';
import { anchor } from './tinyWorld.js';

// Issue 10: an own-account movement shows on both sides, as on the exchange, so a report that
// leaves both legs out keeps the ledger's balance. E19 lists a transfer only to its initiator
// (spec E19); its futures or margin side is that wallet's bill or margin record.

const DAY = 86_400_000;
const walletSeries: Partial<Record<AccountType, ['futuresBills' | 'marginRecords', string]>> = {
  usdt_futures: ['futuresBills', 'USDT-FUTURES'], coin_futures: ['futuresBills', 'COIN-FUTURES'], usdc_futures: ['futuresBills', 'USDC-FUTURES'],
  crossed_margin: ['marginRecords', 'crossed'], isolated_margin: ['marginRecords', 'isolated'],
};

/** Every own-account leg of the world, keyed so that a leg and its counter leg share the key. */
function legs(w: World): { sources: Map<string, number>; counters: Map<string, number> } {
  const sources = new Map<string, number>();
  const counters = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  const family = new Set(w.accounts.filter((a) => !a.demo && (a.main || a.parentUid !== null)).map((a) => a.uid));
  for (const a of w.accounts) {
    for (const t of w.series(a.uid, 'transfers', 'all').all()) {
      if (t.status !== 'Successful') continue;
      for (const [uid, type, sign] of [[t.fromUserId, t.fromType, '-'], [t.toUserId, t.toType, '']] as const) {
        const target = walletSeries[type];
        if (target) bump(sources, `${uid}|${target[0]}|${target[1]}|${t.ts}|${t.coin}|${sign}${t.size}`);
      }
    }
    for (const p of ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']) {
      for (const b of w.series(a.uid, 'futuresBills', p).all()) {
        if (b.businessType.startsWith('trans_')) bump(counters, `${a.uid}|futuresBills|${p}|${b.cTime}|${b.coin}|${b.amount}`);
      }
    }
    for (const p of ['crossed', 'isolated']) {
      for (const r of w.series(a.uid, 'marginRecords', p).all()) {
        if (r.marginTaxType.startsWith('transfer_')) bump(counters, `${a.uid}|marginRecords|${p}|${r.ts}|${r.coin}|${r.amount}`);
      }
    }
    for (const wd of w.series(a.uid, 'withdrawals', 'all').all()) {
      if (wd.status === 'success' && wd.dest === 'internal_transfer' && family.has(wd.toAddress)) {
        bump(sources, `internal|${a.uid}>${wd.toAddress}|${wd.cTime}|${wd.coin}|${wd.size}|${wd.tradeId}`);
      }
    }
    for (const d of w.series(a.uid, 'deposits', 'all').all()) {
      if (d.status === 'success' && d.dest !== 'on_chain' && family.has(d.fromAddress)) {
        bump(counters, `internal|${d.fromAddress}>${a.uid}|${d.cTime}|${d.coin}|${d.size}|${d.tradeId}`);
      }
    }
  }
  return { sources, counters };
}

describe('own-account movements in the sandbox', () => {
  it.each(['tiny', 'small'])('have both legs, same time, coin and amount (%s)', (scale) => {
    const w = createWorld({ seed: 3, scale, now: anchor });
    const { sources, counters } = legs(w);
    expect(sources.size).toBeGreaterThan(scale === 'tiny' ? 20 : 300);
    expect([...counters.keys()].filter((k) => !sources.has(k))).toEqual([]);
    expect([...sources.keys()].filter((k) => !counters.has(k))).toEqual([]);
    expect([...sources].filter(([k, n]) => counters.get(k) !== n)).toEqual([]);
  });

  it('keep ids and times in order where legs are placed, and find every record by its id', () => {
    const w = createWorld({ seed: 3, scale: 'small', now: anchor });
    for (const a of w.accounts.filter((x) => !x.demo)) {
      for (const [r, p] of [['futuresBills', 'USDT-FUTURES'], ['marginRecords', 'crossed'], ['deposits', 'all'], ['withdrawals', 'all']] as const) {
        const s = w.series(a.uid, r, p);
        const ids = [...s.all()].map((x) => BigInt((x as unknown as Record<string, string>)[r === 'futuresBills' ? 'billId' : r === 'marginRecords' ? 'id' : 'orderId']!));
        for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${a.uid} ${r} ${i}`).toBe(true);
        const all = [...s.all()];
        for (let i = 0; i < s.size; i += 7) expect(s.get(String(ids[i]))).toEqual(all[i]);
        // A paged walk by time sees every record once, placed legs included.
        expect(s.query({ limit: 1000 }).length).toBe(Math.min(1000, s.size));
      }
    }
  });

  it('a main account with 20 sub-accounts still builds, with every leg paired', () => {
    const w = createWorld({ seed: 5, scale: 'tiny,subAccounts=20', now: anchor });
    const { sources, counters } = legs(w);
    expect(sources.size).toBeGreaterThan(100);
    expect([...sources].filter(([k, n]) => counters.get(k) !== n)).toEqual([]);
  });

  it('records that settle later get their counter legs when they settle, and new history is paired too', () => {
    const w = createWorld({ seed: 3, scale: 'small', now: anchor });
    const open = w.accounts.flatMap((a) => [...w.series(a.uid, 'transfers', 'all').all()]
      .filter((t) => t.status === 'Processing' && (walletSeries[t.fromType] || walletSeries[t.toType])));
    expect(open.length).toBeGreaterThan(0);
    const pendingInternal = new Set(w.accounts.flatMap((a) => [
      ...[...w.series(a.uid, 'withdrawals', 'all').all()].filter((x) => x.status === 'pending' && x.dest === 'internal_transfer'),
      ...[...w.series(a.uid, 'deposits', 'all').all()].filter((x) => x.status === 'pending' && x.dest !== 'on_chain'),
    ]).map((x) => x.tradeId));
    w.advance(5 * DAY);
    const settledLegs = open.filter((t) => w.series(t.fromUserId, 'transfers', 'all').get(t.transferId)!.status === 'Successful');
    expect(settledLegs.length).toBe(open.length);
    const { sources, counters } = legs(w);
    // Settled records keep their own time; their legs are booked at the settling time.
    const unpaired = [...sources.keys()].filter((k) => !counters.has(k));
    const settledKeys = new Set(open.map((t) => `${t.ts}|${t.coin}`));
    const explained = (k: string): boolean => (k.startsWith('internal|')
      ? pendingInternal.has(k.split('|').at(-1)!) : settledKeys.has(k.split('|').slice(3, 5).join('|')));
    expect(unpaired.filter((k) => !explained(k))).toEqual([]);
    // Every settled transfer's leg exists with the same coin and amount, at the settling time.
    const settleTime = String(anchor + 5 * DAY);
    for (const t of open) {
      for (const [uid, type, sign] of [[t.fromUserId, t.fromType, '-'], [t.toUserId, t.toType, '']] as const) {
        const target = walletSeries[type];
        if (target) expect(counters.has(`${uid}|${target[0]}|${target[1]}|${settleTime}|${t.coin}|${sign}${t.size}`), t.transferId).toBe(true);
      }
    }
  });
});
