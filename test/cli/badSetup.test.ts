import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { control, startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { exitCodes } from '../../src/errors.js';
import { runCli } from '../support/runCli.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let env: Record<string, string>;
let secrets: string[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  const main = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
  secrets = [main.secretKey, main.passphrase];
  env = {
    DATABASE_URL: fresh.url, TRADELEDGER_BASE_URL: sandbox.baseUrl, TRADELEDGER_API_KEY: main.apiKey,
    TRADELEDGER_API_SECRET: main.secretKey, TRADELEDGER_API_PASSPHRASE: main.passphrase,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

function expectNoSecret(text: string): void {
  for (const s of secrets) expect(text.includes(s), 'a secret in the output').toBe(false);
}

describe('bad setup gives a clear message and exit code 2', () => {
  it('a wrong API key', async () => {
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, TRADELEDGER_API_KEY: 'bg_not_a_real_key' });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toMatch(/account "main".*API key/);
    expect(r.stderr).toContain('fix: ');
    expectNoSecret(r.stderr + r.stdout);
  });

  it('a wrong passphrase', async () => {
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, TRADELEDGER_API_PASSPHRASE: 'WrongPassphrase99' });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toMatch(/passphrase/);
    expect(r.stderr).toContain('TRADELEDGER_API_PASSPHRASE');
    expectNoSecret(r.stderr + r.stdout);
  });

  it('a clock far off the exchange\'s, while a small drift is corrected silently', async () => {
    await control(sandbox, 'clock', { skewMs: 10 * 60_000 });
    try {
      const r = await runCli(['sync', '--streams', 'deposits'], env);
      expect(r.code).toBe(exitCodes.configOrAuth);
      expect(r.stderr).toMatch(/clock is 60\d s behind/);
      expect(r.stderr).toMatch(/fix: .*NTP/);
      await control(sandbox, 'clock', { skewMs: 20_000 });
      const ok = await runCli(['sync', '--streams', 'deposits'], env);
      expect(ok.code, ok.stderr).toBe(exitCodes.ok);
    } finally {
      await control(sandbox, 'clock', { skewMs: 0 });
    }
  });

  it('a config error names the file, the key and the fix', async () => {
    const { file, env: secretsEnv } = writeSandboxConfig(sandbox, { safetyLagSecs: 0 });
    const r = await runCli(['sync', '--config', file], { ...secretsEnv, DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('sync');
    expect(r.stderr).toMatch(/safetyLagSecs/);
    expect(r.stderr).toMatch(/fix: /);
  });

  it('a secret written into the config file is refused', async () => {
    const { file, dir } = writeSandboxConfig(sandbox);
    const withSecret = join(dir, 'with-secret.json');
    writeFileSync(withSecret, JSON.stringify({ accounts: [{ name: 'main', apiKey: 'k', secret: 'x'.repeat(40), passphraseEnv: 'P' }] }));
    const r = await runCli(['sync', '--config', withSecret], { DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toContain(`${withSecret}: accounts[0].secret: a secret is written into the config file`);
    expect(r.stderr).toContain('secretEnv');
    expect(r.stderr.includes('x'.repeat(40))).toBe(false);
    void file;
  });

  it('a secret variable the config names but the environment lacks', async () => {
    const { file, env: secretsEnv } = writeSandboxConfig(sandbox);
    const missing = Object.keys(secretsEnv).find((k) => k.endsWith('_SECRET'))!;
    const rest = Object.fromEntries(Object.entries(secretsEnv).filter(([k]) => k !== missing));
    const r = await runCli(['sync', '--config', file], { ...rest, DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toContain(`environment variable ${missing} is not set`);
    expect(r.stderr).toContain(`fix: export ${missing}=`);
  });
});
