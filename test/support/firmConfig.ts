import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from './tempFolder.js';
import type { RunningSandbox } from './sandbox.js';

/** A sandbox client account (`--accounts N`) as a config file lists it. */
export interface FirmAccount { name: string; uid: string }

/**
 * Writes a config file listing the sandbox's client accounts (client-001, ...) with their UIDs,
 * secrets named as environment variables, and returns the file, the variables and the accounts.
 * `breakKeyOf` names accounts whose passphrase is replaced by a wrong one.
 */
export function writeFirmConfig(sandbox: RunningSandbox, extra: Record<string, unknown> = {}, breakKeyOf: readonly string[] = []): { file: string; env: Record<string, string>; accounts: FirmAccount[] } {
  const clients = sandbox.accounts.filter((a) => a.name.startsWith('client-'));
  const env: Record<string, string> = {};
  const accounts = clients.map((a, i) => {
    env[`TL_C${i}_KEY`] = a.apiKey;
    env[`TL_C${i}_SECRET`] = a.secretKey;
    env[`TL_C${i}_PASS`] = breakKeyOf.includes(a.name) ? 'WrongPassphrase1' : a.passphrase;
    return { name: a.name, uid: a.uid, apiKeyEnv: `TL_C${i}_KEY`, secretEnv: `TL_C${i}_SECRET`, passphraseEnv: `TL_C${i}_PASS` };
  });
  const dir = tempFolder('tradeledger-firm-');
  const file = join(dir, 'tradeledger.json');
  writeFileSync(file, JSON.stringify({ baseUrl: sandbox.baseUrl, accounts, ...extra }, null, 2));
  return { file, env, accounts: accounts.map((a) => ({ name: a.name, uid: a.uid })) };
}
