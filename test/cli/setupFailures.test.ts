import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, withDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { exitCodes } from '../../src/errors.js';
import { runCli } from '../support/runCli.js';
import type { CliResult } from '../support/runCli.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  const main = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
  env = {
    DATABASE_URL: fresh.url, TRADELEDGER_BASE_URL: sandbox.baseUrl, TRADELEDGER_API_KEY: main.apiKey,
    TRADELEDGER_API_SECRET: main.secretKey, TRADELEDGER_API_PASSPHRASE: main.passphrase,
  };
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

/** One message line and one fix line on stderr, nothing that looks like a crash. */
function expectOneLine(r: CliResult, message: RegExp, fix: RegExp): void {
  expect(r.stderr, r.stderr).not.toMatch(/unexpected error|This is a bug|\n\s+at |Unhandled/);
  const lines = r.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('{'));
  expect(lines, r.stderr).toHaveLength(2);
  expect(lines[0]).toMatch(message);
  expect(lines[1]).toMatch(fix);
}

describe('setup failures have documented exit codes and one-line messages', () => {
  it('a database that does not exist: exit 4', async () => {
    const r = await runCli(['status'], { DATABASE_URL: withDatabase(fresh.url, 'tl_no_such_database') });
    expect(r.code).toBe(exitCodes.database);
    expectOneLine(r, /^tradeledger: could not connect to PostgreSQL at .*tl_no_such_database: database "tl_no_such_database" does not exist$/, /^ {2}fix: Create that database/);
  });

  it('PostgreSQL unreachable: exit 4', async () => {
    const r = await runCli(['sync', '--streams', 'deposits'], { ...env, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/tradeledger' });
    expect(r.code).toBe(exitCodes.database);
    expectOneLine(r, /^tradeledger: could not connect to PostgreSQL at postgresql:\/\/postgres@127\.0\.0\.1:1\/tradeledger: .*ECONNREFUSED/, /^ {2}fix: Start that server/);
  });

  it('the exchange unreachable: exit 5, and --json still prints a summary', async () => {
    const { file, env: secrets, dir } = writeSandboxConfig(sandbox, {}, { maxRetries: 0 });
    const unreachable = join(dir, 'unreachable.json');
    const config = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(unreachable, JSON.stringify({ ...config, baseUrl: 'http://127.0.0.1:1' }));
    const r = await runCli(['sync', '--json', '--config', unreachable, '--streams', 'deposits'], { ...secrets, DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.exchange);
    expectOneLine(r, /^tradeledger: .*connection failed .*ECONNREFUSED/, /^ {2}fix: check the network and the base URL \(http:\/\/127\.0\.0\.1:1\)/);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'failed', error: { code: 'API_NETWORK', kind: 'network' } });
  });

  it('sync.windowDays beyond the endpoint\'s span is a config error naming the key, the maximum and the fix', async () => {
    const { file, env: secrets } = writeSandboxConfig(sandbox, { windowDays: { transfers: 120 } });
    const r = await runCli(['sync', '--config', file], { ...secrets, DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expectOneLine(r, new RegExp(`^tradeledger: ${file}: sync\\.windowDays\\.transfers: 120 days is more than E19 \\(transfers\\) allows: at most 90 days per request$`),
      /^ {2}fix: set sync\.windowDays\.transfers to 90 or less/);
    const tax = writeSandboxConfig(sandbox, { windowDays: { taxSpotRecords: 400 } });
    const t = await runCli(['sync', '--dry-run', '--config', tax.file], { ...tax.env, DATABASE_URL: fresh.url });
    expect(t.code).toBe(exitCodes.configOrAuth);
    expect(t.stderr).toContain('at most 366 days');
  });

  it('TRADELEDGER_DEMO accepts 1/0/true/false only', async () => {
    const r = await runCli(['sync', '--dry-run', '--streams', 'deposits'], { ...env, TRADELEDGER_DEMO: 'maybe' });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expectOneLine(r, /^tradeledger: environment: TRADELEDGER_DEMO: "maybe" is neither 1\/true nor 0\/false$/, /^ {2}fix: export TRADELEDGER_DEMO=1/);
    const ok = await runCli(['sync', '--dry-run', '--streams', 'deposits'], { ...env, TRADELEDGER_DEMO: 'false' });
    expect(ok.code, ok.stderr).toBe(exitCodes.ok);
  });
});
