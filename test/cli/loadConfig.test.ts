import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/config/loadConfig.js';
import { TradeledgerError } from '../../src/errors.js';
import { tempFolder } from '../support/tempFolder.js';

const dir = tempFolder('tradeledger-config-');
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const env = { MAIN_KEY: 'bg_main', MAIN_SECRET: 'main-secret-value', MAIN_PASS: 'MainPass123', SUB_KEY: 'bg_sub', SUB_PASS: 'SubPass123' };
const valid = {
  baseUrl: 'http://127.0.0.1:9999',
  accounts: [
    { name: 'main', uid: '1001', apiKeyEnv: 'MAIN_KEY', secretEnv: 'MAIN_SECRET', passphraseEnv: 'MAIN_PASS',
      subAccounts: [{ name: 'sub1', uid: '1002', apiKeyEnv: 'SUB_KEY', secretFile: 'sub.secret', passphraseEnv: 'SUB_PASS' }] },
    { name: 'paper', demo: true, apiKeyEnv: 'MAIN_KEY', secretEnv: 'MAIN_SECRET', passphraseEnv: 'MAIN_PASS' },
  ],
  sync: { since: '2024-01-01', lookbackDays: 3, windowDays: { taxSpotRecords: 366 } },
};
file('sub.secret', 'sub-secret-from-file\n');

function configFailure(fn: () => unknown): TradeledgerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TradeledgerError);
    expect((e as TradeledgerError).kind).toBe('config');
    return e as TradeledgerError;
  }
  throw new Error('expected a config error');
}

describe('loadConfig', () => {
  it('layers defaults, file, environment and flags, and freezes the result', () => {
    const path = file('ok.json', valid);
    const c = loadConfig({ config: path, streams: ['deposits'] }, { ...env, TRADELEDGER_BASE_URL: 'http://127.0.0.1:7777' });
    expect(c.baseUrl).toBe('http://127.0.0.1:7777');
    expect(c.accounts.map((a) => [a.name, a.kind, a.parentName])).toEqual([['main', 'main', undefined], ['sub1', 'sub', 'main'], ['paper', 'demo', undefined]]);
    expect(c.accounts[1]!.credentials.secretKey).toBe('sub-secret-from-file');
    expect(c.sync.since).toBe(Date.UTC(2024, 0, 1));
    expect(c.sync.lookbackDays).toBe(3);
    expect(c.sync.safetyLagMs).toBe(120_000);
    expect(c.sync.streams).toEqual(['deposits']);
    expect(c.sync.windowDays).toEqual({ taxSpotRecords: 366 });
    expect(c.sync.parallelWindows).toBe(4);
    expect(loadConfig({ config: file('serial.json', { ...valid, sync: { parallelWindows: 1 } }) }, env).sync.parallelWindows).toBe(1);
    // The per-address rate budgets' key: the host name unless given (hosts behind one NAT address give one).
    expect(c.client.budgetAddress).toBeUndefined();
    expect(loadConfig({ config: file('nat.json', { ...valid, client: { budgetAddress: 'office-nat' } }) }, env).client.budgetAddress).toBe('office-nat');
    expect(Object.isFrozen(c) && Object.isFrozen(c.sync) && Object.isFrozen(c.accounts[0])).toBe(true);
    const flagged = loadConfig({ config: path, since: '2025-06-01', account: ['sub1'] }, env);
    expect(flagged.sync.since).toBe(Date.UTC(2025, 5, 1));
    expect(flagged.accounts.map((a) => a.name)).toEqual(['sub1']);
  });

  it('never shows a secret when the config is logged or serialised', () => {
    const c = loadConfig({ config: file('ok2.json', valid) }, env);
    const shown = JSON.stringify(c) + inspect(c, { depth: 10 }) + String(c.accounts[0]!.credentials);
    for (const s of [env.MAIN_SECRET, env.MAIN_PASS, 'sub-secret-from-file']) expect(shown.includes(s)).toBe(false);
  });

  it('takes one account from TRADELEDGER_* variables without a file', () => {
    const c = loadConfig({}, { TRADELEDGER_API_KEY: 'k', TRADELEDGER_API_SECRET: 's', TRADELEDGER_API_PASSPHRASE: 'p', TRADELEDGER_DEMO: '1' });
    expect(c.source).toBe('environment');
    expect(c.accounts).toHaveLength(1);
    expect(c.accounts[0]!.kind).toBe('demo');
    const e = configFailure(() => loadConfig({}, { TRADELEDGER_API_KEY: 'k' }));
    expect(e.message).toContain('environment: TRADELEDGER_API_SECRET');
    expect(e.hint).toContain('--config');
  });

  it('names the file, the key and the fix for a bad value, an unknown key, bad JSON and a bad --since', () => {
    const badType = file('bad-type.json', { ...valid, sync: { lookbackDays: 'seven' } });
    let e = configFailure(() => loadConfig({ config: badType }, env));
    expect(e.message).toContain(`${badType}: sync.lookbackDays:`);
    expect(e.hint).toBeTruthy();
    const tooMany = file('too-many.json', { ...valid, sync: { parallelWindows: 64 } });
    e = configFailure(() => loadConfig({ config: tooMany }, env));
    expect(e.message).toContain(`${tooMany}: sync.parallelWindows:`);
    const unknown = file('unknown.json', { ...valid, acounts: [] });
    e = configFailure(() => loadConfig({ config: unknown }, env));
    expect(e.message).toContain(unknown);
    expect(e.message).toMatch(/acounts|accounts/);
    const notJson = file('not-json.json', '{ "accounts": [ }');
    e = configFailure(() => loadConfig({ config: notJson }, env));
    expect(e.message).toContain(`${notJson}: (file): not valid JSON`);
    e = configFailure(() => loadConfig({ config: file('ok3.json', valid), since: 'last tuesday' }, env));
    expect(e.message).toContain('--since');
    expect(e.hint).toContain('YYYY-MM-DD');
  });

  it('refuses a secret or passphrase written into the file, naming where it is', () => {
    const path = file('secret.json', { accounts: [{ name: 'main', apiKeyEnv: 'MAIN_KEY', secretEnv: 'MAIN_SECRET', passphrase: 'MainPass123' }] });
    const e = configFailure(() => loadConfig({ config: path }, env));
    expect(e.message).toBe(`${path}: accounts[0].passphrase: a secret is written into the config file, which is refused`);
    expect(e.hint).toContain('passphraseEnv');
    expect(e.message.includes('MainPass123') || String(e.hint).includes('MainPass123')).toBe(false);
  });

  it('refuses a demo account that has a live account\'s UID (its paper rows would mix with real ones)', () => {
    const shared = { ...valid, accounts: [valid.accounts[0], { ...valid.accounts[1], uid: '1001' }] };
    const path = file('demo-shared-uid.json', shared);
    const e = configFailure(() => loadConfig({ config: path }, env));
    expect(e.message).toBe(`${path}: accounts (paper): the demo account "paper" has the UID of the live account "main" (1001)`);
    expect(e.hint).toContain('remove "uid" from the demo account');
  });

  it('names an unknown --account and lists the known ones', () => {
    const e = configFailure(() => loadConfig({ config: file('ok4.json', valid), account: ['nobody'] }, env));
    expect(e.message).toContain('--account');
    expect(e.hint).toContain('main, sub1, paper');
  });
});
