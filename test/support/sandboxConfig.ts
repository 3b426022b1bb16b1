import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from './tempFolder.js';
import type { RunningSandbox } from './sandbox.js';
import { sandboxConfigText } from './sandboxConfigText.js';

/**
 * Writes a config file listing every sandbox account (main accounts with their sub-accounts,
 * demo accounts), secrets named as environment variables, and returns the file path and the
 * variables to set. `sync` entries are merged in. The folder is removed after the test file.
 */
export function writeSandboxConfig(sandbox: RunningSandbox, sync: Record<string, unknown> = {}, client: Record<string, unknown> = {}): { file: string; env: Record<string, string>; dir: string } {
  const { text, env } = sandboxConfigText(sandbox, 'TL_ACCOUNT', sync, client);
  const dir = tempFolder('tradeledger-cli-');
  const file = join(dir, 'tradeledger.json');
  writeFileSync(file, text);
  return { file, env, dir };
}
