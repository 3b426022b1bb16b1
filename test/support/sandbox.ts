import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/startSandbox.js';
import type { AccountLine } from '../../src/sandbox/server/describeAccounts.js';

/**
 * Starts a sandbox in-process on a free port for a test file: tiny data, seed 1, rate limits
 * off unless asked for. Stop it with `await sandbox.close()` in afterAll.
 *
 * @example
 * let sandbox: RunningSandbox;
 * beforeAll(async () => { sandbox = await startTestSandbox(); });
 * afterAll(() => sandbox.close());
 */
export function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, seed: 1, scale: 'tiny', rateLimit: false, ...options });
}

/**
 * The first key line that matches, or a clear failure naming what was looked for.
 *
 * @example
 * const main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.includes('spot_trade'));
 */
export function keyWhere(sandbox: RunningSandbox, match: (a: AccountLine) => boolean, what = 'a matching key'): AccountLine {
  const found = sandbox.accounts.find(match);
  if (!found) throw new Error(`the sandbox has no ${what}; accounts: ${sandbox.accounts.map((a) => `${a.name}[${a.perms.join('|')}]`).join(', ')}`);
  return found;
}

/** The three keys most sandbox tests need: the full broker main key, the demo key, a sub-account key. */
export function standardKeys(sandbox: RunningSandbox): { main: AccountLine; demo: AccountLine; sub: AccountLine } {
  return {
    main: keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key'),
    demo: { ...keyWhere(sandbox, (a) => a.demo, 'demo key'), demo: true },
    sub: keyWhere(sandbox, (a) => !a.main, 'sub-account key'),
  };
}

/** POSTs to a /_sandbox/ control and returns its JSON. */
export async function control(sandbox: RunningSandbox, name: string, body: unknown): Promise<any> {
  const res = await fetch(`${sandbox.baseUrl}/_sandbox/${name}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`/_sandbox/${name} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export type { RunningSandbox };
