import { describe, expect, it } from 'vitest';
import { tinyWorld } from './tinyWorld.js';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';

describe('accounts', () => {
  it('has an ND-broker main with 3 subs, a demo account and a copy trader', () => {
    const w = tinyWorld();
    const main = w.accounts[0]!;
    expect(main).toMatchObject({ main: true, broker: true, demo: false, parentUid: null });
    expect(main.subUids).toHaveLength(3);
    for (const uid of main.subUids) expect(w.account(uid)?.parentUid).toBe(main.uid);
    expect(w.accounts.filter((a) => a.demo)).toHaveLength(1);
    expect(w.accounts.filter((a) => a.copyTrader)).toHaveLength(1);
  });

  it('gives the main account a full key, a read-only key, a key whitelisted to 10.0.0.1 and a read-only RSA key', () => {
    const main = tinyWorld().accounts[0]!;
    expect(main.keys.map((k) => k.perms)).toEqual([
      ['read', 'spot_trade', 'margin_trade', 'contract_trade'], ['read'], ['read', 'spot_trade', 'margin_trade', 'contract_trade'], ['read'],
    ]);
    expect(main.keys[2]!.ipList).toEqual(['10.0.0.1']);
    expect(main.keys[0]!.ipList).toEqual([]);
    expect(main.keys.map((k) => k.rsaPublicKey !== undefined)).toEqual([false, false, false, true]);
    expect(main.keys[3]!.secretKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('lists sub-accounts in the E10 shape, with 8-letter names', () => {
    const w = tinyWorld();
    const subs = w.subAccounts(w.accounts[0]!.uid);
    expect(subs).toHaveLength(3);
    for (const s of subs) {
      expect(s.subAccountName).toMatch(/^[a-z]{8}$/);
      expect(['normal', 'freeze']).toContain(s.status);
      expect(Number(s.cTime)).toBeGreaterThan(0);
    }
    expect(w.subAccounts(w.accounts[1]!.uid)).toEqual([]);
  });

  it('honours subAccounts=N in the scale', () => {
    const w = createWorld({ seed: 1, scale: 'tiny,subAccounts=20', now: 1_800_000_000_000 });
    expect(w.accounts[0]!.subUids).toHaveLength(20);
  });

  it('serves snapshots: positions, futures accounts with unionTotalMagin, demo contracts, coins and symbols', () => {
    const w = tinyWorld();
    const main = w.accounts[0]!;
    const demo = w.accounts.find((a) => a.demo)!;
    expect(w.positions(main.uid, 'USDT-FUTURES').length).toBeGreaterThan(0);
    expect(w.positions(main.uid, 'SUSDT-FUTURES')).toEqual([]);
    expect(w.positions(demo.uid, 'SUSDT-FUTURES')[0]!.symbol).toMatch(/^S.*SUSDT$/);
    const accts = w.futuresAccounts(demo.uid, 'SUSDT-FUTURES');
    expect(accts[0]).toHaveProperty('unionTotalMagin');
    expect(accts[0]!.marginCoin).toBe('SUSDT');
    const trader = w.accounts.find((a) => a.copyTrader)!;
    expect(w.futuresAccounts(trader.uid, 'COIN-FUTURES')[0]!.unionTotalMagin).toBe('111,1');
    const contracts = w.contracts('susdt-futures');
    expect(contracts.map((c) => c.symbol)).toContain('SBTCSUSDT');
    expect(contracts[0]).toMatchObject({ symbolType: 'perpetual', symbolStatus: 'normal', supportMarginCoins: ['SUSDT'] });
    expect(w.contracts('nope')).toEqual([]);
    expect(w.symbols().some((s) => s.symbol.includes('$'))).toBe(true);
    expect(w.coins().find((c) => c.coin === 'XRP')!.chains[0]!.needTag).toBe('true');
  });
});
