import type { AccountLine } from '../../sandbox/server/describeAccounts.js';
import type { SyncAccount } from '../../extract/syncOptions.js';
import { hiddenCredentials } from './hiddenCredentials.js';

/**
 * The sync accounts of a sandbox: one read key per account UID, its kind (main, sub, demo) and
 * parent, as a config file would list them.
 *
 * @example
 * const accounts = sandboxAccounts(sandbox.accounts);
 */
export function sandboxAccounts(lines: readonly AccountLine[]): SyncAccount[] {
  const seen = new Set<string>();
  const out: SyncAccount[] = [];
  for (const a of lines) {
    if (seen.has(a.uid) || !a.perms.includes('read')) continue;
    seen.add(a.uid);
    const parent = lines.find((p) => p.main && p.subUids.includes(a.uid));
    out.push({
      uid: a.uid, name: a.name, kind: a.demo ? 'demo' : parent ? 'sub' : 'main', parentName: parent?.name,
      credentials: hiddenCredentials({ apiKey: a.apiKey, secretKey: a.secretKey, passphrase: a.passphrase }),
    });
  }
  return out;
}
