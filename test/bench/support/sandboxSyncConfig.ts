import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxAccounts } from '../../../src/cli/config/sandboxAccounts.js';
import type { RunningSandbox } from '../../../src/sandbox/startSandbox.js';

/**
 * Writes a tradeledger config file for every account of a sandbox (main accounts with their
 * sub-accounts, demo accounts), the secrets named as environment variables, as an operator
 * would. Returns the file, the variables to pass the sync, and the accounts with their kinds.
 *
 * @example
 * const { file, env } = sandboxSyncConfig(sandbox, { concurrency: 16 }, { rateLimit: false });
 * await runSyncProcess(['--config', file], { ...env, DATABASE_URL: url });
 */
export function sandboxSyncConfig(sandbox: RunningSandbox, sync: Record<string, unknown> = {}, client: Record<string, unknown> = {}) {
  const accounts = sandboxAccounts(sandbox.accounts);
  const env: Record<string, string> = {};
  const entry = (a: (typeof accounts)[number], i: number) => {
    env[`BENCH_${i}_KEY`] = a.credentials.apiKey;
    env[`BENCH_${i}_SECRET`] = a.credentials.secretKey;
    env[`BENCH_${i}_PASS`] = a.credentials.passphrase;
    return { name: a.name, uid: a.uid, apiKeyEnv: `BENCH_${i}_KEY`, secretEnv: `BENCH_${i}_SECRET`, passphraseEnv: `BENCH_${i}_PASS` };
  };
  const top = accounts.map((a, i) => ({ a, i })).filter(({ a }) => a.kind !== 'sub').map(({ a, i }) => ({
    ...entry(a, i), ...(a.kind === 'demo' ? { demo: true } : {}),
    subAccounts: accounts.map((s, j) => ({ s, j })).filter(({ s }) => s.parentName === a.name).map(({ s, j }) => entry(s, j)),
  }));
  const dir = mkdtempSync(join(tmpdir(), 'tradeledger-bench-'));
  // Removed when the benchmark's process ends (a benchmark is not a vitest file: no afterAll).
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tradeledger.json');
  writeFileSync(file, JSON.stringify({ baseUrl: sandbox.baseUrl, accounts: top, sync, client }, null, 2));
  return { file, env, accounts: accounts.map((a) => ({ uid: a.uid!, name: a.name, kind: a.kind })) };
}
