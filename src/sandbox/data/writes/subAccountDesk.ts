import type { Permission } from '../../../api/endpoints.js';
import type { SandboxAccount, SandboxKey } from '../../world.js';
import { fakeKey } from '../fakeKey.js';
import { fail, oneOf } from './writeChecks.js';
import type { WorldCore } from './worldCore.js';

/** Spec §8 limits. */
export const subAccountLimits = { subAccounts: 20, keysPerSub: 10, ips: 30, labelLength: 20 } as const;
const perms: readonly Permission[] = ['spot_trade', 'margin_trade', 'contract_trade', 'read'];

interface KeyRequest { passphrase: string; label: string; ipList?: string[]; permList?: Permission[] }

function checkKeyRequest(item: KeyRequest): void {
  if (item.passphrase === undefined || item.passphrase === '') fail('40019', 'passphrase');
  if (!/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{8,32}$/.test(item.passphrase)) {
    fail('40017', 'passphrase: use 8-32 English letters and digits, with at least one of each');
  }
  if (item.label === undefined || item.label === '') fail('40019', 'label');
  if (item.label.length > subAccountLimits.labelLength) fail('40017', `label: at most ${subAccountLimits.labelLength} characters`);
  const ips = item.ipList ?? [];
  if (ips.length > subAccountLimits.ips) fail('40017', `ipList: at most ${subAccountLimits.ips} IP addresses`);
  for (const ip of ips) if (!/^[0-9a-fA-F:.]{2,45}$/.test(ip)) fail('40017', `ipList: '${ip}' is not an IP address`);
  for (const p of item.permList ?? []) oneOf(p, 'permList', perms);
}

function mainOf(core: WorldCore, mainUid: string): SandboxAccount {
  const main = core.account(mainUid);
  if (main === undefined || !main.main || main.demo) fail('40014', 'main-account');
  return main;
}

function newKey(core: WorldCore, sub: SandboxAccount, item: KeyRequest): SandboxKey {
  const key = fakeKey(core.seed, sub.uid, sub.keys.length, item.permList ?? ['read'], item.ipList ?? [], item.label);
  // The passphrase is the caller's own; only the key and secret are derived.
  return { ...key, passphrase: item.passphrase };
}

/**
 * E6 item: creates a virtual sub-account (name of 8 English letters, at most 20 per main
 * account) with its first API key. The sub-account appears in `subAccounts(mainUid)` at now().
 *
 * @example
 * createSubAccount(core, mainUid, { subAccountName: 'abcdefgh', passphrase: 'Passw0rd1', label: 'bot' });
 */
export function createSubAccount(core: WorldCore, mainUid: string, item: KeyRequest & { subAccountName: string }): { account: SandboxAccount; key: SandboxKey } {
  const main = mainOf(core, mainUid);
  if (item.subAccountName === undefined || item.subAccountName === '') fail('40019', 'subAccountName');
  if (!/^[A-Za-z]{8}$/.test(item.subAccountName)) fail('40017', 'subAccountName: use exactly 8 English letters');
  if (core.accounts.some((a) => a.name === item.subAccountName)) fail('40017', `subAccountName '${item.subAccountName}' is taken`);
  checkKeyRequest(item);
  if (main.subUids.length >= subAccountLimits.subAccounts) {
    fail('40017', `a main account can have at most ${subAccountLimits.subAccounts} sub-accounts`);
  }
  const top = core.accounts.reduce((m, a) => Math.max(m, Number(a.uid)), 0);
  const uid = String(top + 1117);
  const account: SandboxAccount = {
    uid, name: item.subAccountName, main: false, broker: false, demo: false, copyTrader: false, parentUid: main.uid, subUids: [], keys: [],
  };
  const key = newKey(core, account, item);
  account.keys.push(key);
  core.accounts.push(account);
  main.subUids.push(uid);
  const now = core.now();
  core.subMeta.set(uid, { status: 'normal', label: item.label, cTime: now, uTime: now });
  return { account, key };
}

/**
 * E7: adds an API key to one of the main account's sub-accounts (at most 10 keys each).
 *
 * @example
 * createSubAccountKey(core, mainUid, subUid, { passphrase: 'Passw0rd1', label: 'read', permList: ['read'] });
 */
export function createSubAccountKey(core: WorldCore, mainUid: string, subUid: string, item: KeyRequest): SandboxKey {
  const main = mainOf(core, mainUid);
  const sub = main.subUids.includes(subUid) ? core.account(subUid) : undefined;
  if (sub === undefined) fail('40034', 'subAccountUid');
  checkKeyRequest(item);
  if (sub.keys.length >= subAccountLimits.keysPerSub) fail('40017', `a sub-account can have at most ${subAccountLimits.keysPerSub} API keys`);
  const key = newKey(core, sub, item);
  sub.keys.push(key);
  return key;
}
