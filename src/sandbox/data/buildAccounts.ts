import type { Permission } from '../../api/endpoints.js';
import type { SandboxAccount } from '../world.js';
import { fakeKey, fakeRsaKey, fakeLetters } from './fakeKey.js';
import { hashKey } from './rng.js';

export const fullPerms: readonly Permission[] = ['read', 'spot_trade', 'margin_trade', 'contract_trade'];

/** What E10 shows of a sub-account beyond its SandboxAccount. */
export interface SubAccountMeta {
  status: 'normal' | 'freeze' | 'del';
  label: string;
  cTime: number;
  uTime: number;
}

export interface BuiltAccounts {
  accounts: SandboxAccount[];
  subMeta: Map<string, SubAccountMeta>;
}

const DAY = 86_400_000;

/**
 * The world's accounts: an ND-broker main account with `subCount` sub-accounts, a demo account
 * and a copy-trading trader. The main account holds a full key, a read-only key and a key
 * whitelisted to 10.0.0.1 (so loopback calls with it are refused). `clientCount` more main
 * accounts (`client-001`, ...) play a firm's clients: each its own UID, one full key and its
 * own data; they come after the others, so a world without them is unchanged.
 *
 * @example
 * const { accounts } = buildAccounts(1, 3, Date.now());
 * buildAccounts(1, 3, Date.now(), 200).accounts.length; // 206
 */
export function buildAccounts(seed: number, subCount: number, now: number, clientCount = 0): BuiltAccounts {
  const base = 2_000_000_000 + (hashKey(seed, 'uid') % 5_000_000_000);
  const uidOf = (k: number): string => String(base + k * 1117);
  const mainUid = uidOf(0);
  const subUids = Array.from({ length: subCount }, (_, k) => uidOf(k + 1));
  const main: SandboxAccount = {
    uid: mainUid, name: 'main', main: true, broker: true, demo: false, copyTrader: false, parentUid: null, subUids,
    keys: [
      fakeKey(seed, mainUid, 0, [...fullPerms], [], 'full'),
      fakeKey(seed, mainUid, 1, ['read'], [], 'read-only'),
      fakeKey(seed, mainUid, 2, [...fullPerms], ['10.0.0.1'], 'ip-whitelist'),
      fakeRsaKey(seed, mainUid, 3, ['read'], 'rsa-read-only'),
    ],
  };
  const subMeta = new Map<string, SubAccountMeta>();
  const subs = subUids.map((uid, k): SandboxAccount => {
    const cTime = now - (700 - k * 20) * DAY;
    subMeta.set(uid, { status: k === 2 ? 'freeze' : 'normal', label: `sub${k + 1}`, cTime, uTime: cTime + DAY });
    return {
      uid, name: fakeLetters(seed, uid), main: false, broker: false, demo: false, copyTrader: false, parentUid: mainUid, subUids: [],
      keys: [fakeKey(seed, uid, 0, [...fullPerms], [], `sub${k + 1}-full`)],
    };
  });
  const demoUid = uidOf(subCount + 1);
  const demo: SandboxAccount = {
    uid: demoUid, name: 'demo', main: true, broker: false, demo: true, copyTrader: false, parentUid: null, subUids: [],
    keys: [fakeKey(seed, demoUid, 0, [...fullPerms], [], 'demo')],
  };
  const traderUid = uidOf(subCount + 2);
  const trader: SandboxAccount = {
    uid: traderUid, name: 'copy-trader', main: true, broker: false, demo: false, copyTrader: true, parentUid: null, subUids: [],
    keys: [fakeKey(seed, traderUid, 0, [...fullPerms], [], 'trader')],
  };
  const width = Math.max(3, String(clientCount).length);
  const clients = Array.from({ length: clientCount }, (_, k): SandboxAccount => {
    const uid = uidOf(subCount + 3 + k);
    return {
      uid, name: `client-${String(k + 1).padStart(width, '0')}`, main: true, broker: false, demo: false, copyTrader: false, parentUid: null, subUids: [],
      keys: [fakeKey(seed, uid, 0, [...fullPerms], [], `client${k + 1}`)],
    };
  });
  return { accounts: [main, ...subs, demo, trader, ...clients], subMeta };
}
