import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from './tempFolder.js';
import type { RunningSandbox } from './sandbox.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';

/**
 * Writes a config file listing every sandbox account (main accounts with their sub-accounts,
 * demo accounts), secrets named as environment variables, and returns the file path and the
 * variables to set. `sync` entries are merged in. The folder is removed after the test file.
 */
export function writeSandboxConfig(sandbox: RunningSandbox, sync: Record<string, unknown> = {}, client: Record<string, unknown> = {}): { file: string; env: Record<string, string>; dir: string } {
  const accounts = sandboxAccounts(sandbox.accounts);
  const env: Record<string, string> = {};
  const entry = (a: (typeof accounts)[number], i: number) => {
    const v = `TL_ACCOUNT_${i}`;
    env[`${v}_KEY`] = a.credentials.apiKey;
    env[`${v}_SECRET`] = a.credentials.secretKey;
    env[`${v}_PASS`] = a.credentials.passphrase;
    return { name: a.name, uid: a.uid, apiKeyEnv: `${v}_KEY`, secretEnv: `${v}_SECRET`, passphraseEnv: `${v}_PASS` };
  };
  const top = accounts.map((a, i) => ({ a, i })).filter(({ a }) => a.kind !== 'sub').map(({ a, i }) => ({
    ...entry(a, i), ...(a.kind === 'demo' ? { demo: true } : {}),
    subAccounts: accounts.map((s, j) => ({ s, j })).filter(({ s }) => s.parentName === a.name).map(({ s, j }) => entry(s, j)),
  }));
  const dir = tempFolder('tradeledger-cli-');
  const file = join(dir, 'tradeledger.json');
  writeFileSync(file, JSON.stringify({ baseUrl: sandbox.baseUrl, accounts: top, sync, client }, null, 2));
  return { file, env, dir };
}
