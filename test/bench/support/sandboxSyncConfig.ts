import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../../src/sandbox/startSandbox.js';
import { sandboxConfigText } from '../../support/sandboxConfigText.js';

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
  const { text, env, accounts } = sandboxConfigText(sandbox, 'BENCH', sync, client);
  const dir = mkdtempSync(join(tmpdir(), 'tradeledger-bench-'));
  // Removed when the benchmark's process ends (a benchmark is not a vitest file: no afterAll).
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tradeledger.json');
  writeFileSync(file, text);
  return { file, env, accounts };
}
