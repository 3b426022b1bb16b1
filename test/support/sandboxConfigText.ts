import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import type { RunningSandbox } from '../../src/sandbox/startSandbox.js';

/**
 * The text of a tradeledger config file listing every account of a sandbox (main accounts with
 * their sub-accounts, demo accounts) as an operator writes one: each secret named by an
 * environment variable (`<prefix>_<i>_KEY`, `_SECRET`, `_PASS`), `sync` and `client` merged in.
 * Returns the text, the variables to set, and the accounts with their kinds. The tests
 * (sandboxConfig.ts) and the benchmarks (bench/support/sandboxSyncConfig.ts) each write it into a
 * folder of their own; this file imports nothing of vitest, so a benchmark can use it.
 *
 * @example
 * const { text, env } = sandboxConfigText(sandbox, 'TL_ACCOUNT', { concurrency: 16 });
 */
export function sandboxConfigText(sandbox: RunningSandbox, prefix: string, sync: Record<string, unknown> = {}, client: Record<string, unknown> = {}) {
  const accounts = sandboxAccounts(sandbox.accounts);
  const env: Record<string, string> = {};
  const entry = (a: (typeof accounts)[number], i: number) => {
    const v = `${prefix}_${i}`;
    env[`${v}_KEY`] = a.credentials.apiKey;
    env[`${v}_SECRET`] = a.credentials.secretKey;
    env[`${v}_PASS`] = a.credentials.passphrase;
    return { name: a.name, uid: a.uid, apiKeyEnv: `${v}_KEY`, secretEnv: `${v}_SECRET`, passphraseEnv: `${v}_PASS` };
  };
  const top = accounts.map((a, i) => ({ a, i })).filter(({ a }) => a.kind !== 'sub').map(({ a, i }) => ({
    ...entry(a, i), ...(a.kind === 'demo' ? { demo: true } : {}),
    subAccounts: accounts.map((s, j) => ({ s, j })).filter(({ s }) => s.parentName === a.name).map(({ s, j }) => entry(s, j)),
  }));
  const text = JSON.stringify({ baseUrl: sandbox.baseUrl, accounts: top, sync, client }, null, 2);
  return { text, env, accounts: accounts.map((a) => ({ uid: a.uid!, name: a.name, kind: a.kind })) };
}
