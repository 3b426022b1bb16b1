import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { runSync } from '../../src/extract/runSync.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import { testSyncOptions } from '../support/testSync.js';

const subAccountsPath = '/api/v2/user/virtual-subaccount-list';

let sandbox: RunningSandbox;
let proxy: MutatingProxy;
let fresh: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  proxy = await startMutatingProxy(sandbox.baseUrl);
  fresh = await freshDatabase();
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await fresh?.drop();
});

// A full page (500 entries, the limit the sync asks for) whose endId never moves: a broken
// exchange release. Before, the listing took it for the end of the list, and every sub-account
// past it silently went unsynced.
function stuckFullPage(real: any): unknown {
  const list = Array.from({ length: 500 }, (_, i) => ({ subAccountUid: String(9_000_000_000 + i), status: 'normal' }));
  return { ...real, data: { subAccountList: list, endId: '9000000000' } };
}

describe('the sub-account listing (E10) with a cursor that does not move', () => {
  it('fails the sub-account snapshot instead of returning part of the list, and a clean rerun is ok', async () => {
    const main = sandboxAccounts(sandbox.accounts).find((a) => a.kind === 'main')!;
    const options = testSyncOptions(sandbox, fresh.db, [], { baseUrl: proxy.baseUrl, accounts: [main], sync: { streams: ['subAccounts'] } });
    proxy.rewrite((a) => (a.path === subAccountsPath ? stuckFullPage(a.json) : undefined));
    const faulty = await runSync(options);
    expect(proxy.rewritten).toBeGreaterThan(0);
    expect(faulty.status).toBe('partial');
    expect(faulty.errors.map((e) => `${e.stream}: ${e.message}`).join('\n')).toMatch(/subAccounts.*endId did not move/);

    proxy.rewrite(undefined);
    const clean = await runSync(options);
    expect(clean.errors).toEqual([]);
    expect(clean.status).toBe('ok');
  });
});
