import { describe, expect, it } from 'vitest';
import { anchor, tinyWorld } from './tinyWorld.js';
import { createWorld } from '../../../src/sandbox/data/createWorld.js';

function dump(seed: number, now = anchor): string {
  const w = createWorld({ seed, scale: 'tiny', now });
  return JSON.stringify({ accounts: w.accounts, truth: [...w.truth()] });
}

describe('determinism', () => {
  it('same seed and now give identical accounts, keys and records', () => {
    expect(dump(7)).toBe(dump(7));
  });

  it('a different seed or now gives different data', () => {
    const base = dump(7);
    expect(dump(8)).not.toBe(base);
    expect(dump(7, anchor + 1000)).not.toBe(base);
  });

  it('writes with the same inputs produce the same ids', () => {
    const run = () => {
      const w = tinyWorld(3);
      const uid = w.accounts[0]!.uid;
      const a = w.placeSpotOrder(uid, { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '100', size: '0.01' });
      const b = w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'Tabc', size: '50' });
      return [a, b];
    };
    expect(run()).toEqual(run());
  });

  it('keys look like the exchange keys and passphrases follow the 8-32 letters+digits rule', () => {
    const w = tinyWorld();
    const keys = w.accounts.flatMap((a) => a.keys);
    expect(new Set(keys.map((k) => k.apiKey)).size).toBe(keys.length);
    for (const k of keys) {
      expect(k.passphrase).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{8,32}$/);
      // An HMAC key's secret is 64 hex digits; an RSA key's is its PEM private key.
      expect(k.secretKey).toMatch(k.rsaPublicKey === undefined ? /^[0-9a-f]{64}$/ : /^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
      expect(w.keyOwner(k.apiKey)?.key).toBe(k);
    }
  });
});
