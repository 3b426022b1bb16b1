import { openingCoins } from '../../../src/sandbox/data/openingBalances.js';
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import { parseScale } from '../../../src/sandbox/data/scalePlan.js';

const now = Date.UTC(2026, 5, 1);

describe('sandbox --accounts: a large firm', () => {
  it('adds client accounts with their own UID, key and data, deterministic from the seed', () => {
    const plain = createWorld({ seed: 3, scale: 'tiny', now });
    const firm = createWorld({ seed: 3, scale: 'tiny', now, clientAccounts: 200 });
    const again = createWorld({ seed: 3, scale: 'tiny', now, clientAccounts: 200 });
    expect(firm.accounts.length).toBe(plain.accounts.length + 200);
    // The standard accounts are exactly those of a world without the flag.
    expect(firm.accounts.slice(0, plain.accounts.length)).toEqual(plain.accounts);
    const clients = firm.accounts.slice(plain.accounts.length);
    expect(clients[0]!.name).toBe('client-001');
    expect(clients[199]!.name).toBe('client-200');
    expect(new Set(firm.accounts.map((a) => a.uid)).size).toBe(firm.accounts.length);
    expect(new Set(firm.accounts.flatMap((a) => a.keys.map((k) => k.apiKey))).size).toBe(firm.accounts.flatMap((a) => a.keys).length);
    for (const c of clients) expect(c).toMatchObject({ main: true, broker: false, demo: false, parentUid: null, subUids: [] });
    expect(again.accounts).toEqual(firm.accounts);
    // Each client has its own history, of the tiny preset's size, different from its neighbour's.
    const deposits = (uid: string) => firm.series(uid, 'deposits', 'all').query({ limit: 1000 });
    const a = deposits(clients[0]!.uid);
    const b = deposits(clients[1]!.uid);
    // The tiny preset's deposits plus the opening deposits (one per coin, openingBalances.ts).
    expect(a.length).toBe(parseScale('tiny').perAccount.deposits + openingCoins.length);
    expect(a.map((r) => r.orderId)).not.toEqual(b.map((r) => r.orderId));
    expect(deposits(clients[5]!.uid)).toEqual(again.series(clients[5]!.uid, 'deposits', 'all').query({ limit: 1000 }));
  });

  it('shares the medium, large and xl totals among all accounts, clients included', () => {
    expect(parseScale('medium', 3, 0).perAccount.spotOrders).toBeGreaterThan(parseScale('medium', 3, 94).perAccount.spotOrders * 10);
    expect(parseScale('tiny', 3, 94).perAccount).toEqual(parseScale('tiny').perAccount);
  });
});
