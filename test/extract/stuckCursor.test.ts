import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { runSync } from '../../src/extract/runSync.js';
import { main } from '../../src/cli/main.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { fillDifferences, fillsOnly, fillsPath, fillsState } from './hostileExchange.js';

let sandbox: RunningSandbox;
let proxy: MutatingProxy;
const dbs: FreshDatabase[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'spotFills=2000' });
  proxy = await startMutatingProxy(sandbox.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  for (const d of dbs) await d.drop();
});

describe('a cursor that does not move (page 2 answers page 1 again)', () => {
  // 4: windows walked in parallel (sync_windows); 1: one after another (sync_state's window cursor).
  it.each([4, 1])('fails the partition, keeps the watermark, and the next run reads the window again (%i windows at once)', async (parallelWindows) => {
    const fresh = await freshDatabase();
    dbs.push(fresh);
    // Each window's first page is kept; its second page is answered with the first again.
    const firstPages = new Map<string, unknown>();
    proxy.rewrite((a) => {
      if (a.path !== fillsPath) return undefined;
      const window = `${a.query.get('startTime')}-${a.query.get('endTime')}`;
      if (a.page === 1) firstPages.set(window, a.json);
      return a.page === 2 ? firstPages.get(window) : undefined;
    });
    const rewrittenBefore = proxy.rewritten;
    const only = fillsOnly(sandbox, fresh.db, proxy.baseUrl);
    const faulty = await runSync({ ...only, sync: { ...only.sync, parallelWindows } });
    expect(proxy.rewritten).toBeGreaterThan(rewrittenBefore);
    expect(faulty.status).toBe('partial'); // the CLI's exit 3
    expect(faulty.errors.map((e) => e.stream)).toContain('spotFills');
    expect(faulty.errors.map((e) => e.message).join('\n')).toMatch(/cursor/i);
    const state = await fillsState(fresh.db);
    expect(state?.status).not.toBe('ok');
    expect(state?.watermark ?? null).toBeNull();
    expect((await fillDifferences(sandbox, fresh.db)).some((d) => d.endsWith('missing'))).toBe(true);

    proxy.rewrite(undefined);
    const clean = await runSync({ ...only, sync: { ...only.sync, parallelWindows } });
    expect(clean.errors).toEqual([]);
    expect(clean.status).toBe('ok');
    expect(await fillDifferences(sandbox, fresh.db)).toEqual([]);
  });
});

describe('the same fault through `tradeledger sync`', () => {
  const saved = { ...process.env };
  let cliDb: FreshDatabase;
  beforeAll(async () => {
    cliDb = await freshDatabase();
    const account = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
    Object.assign(process.env, {
      DATABASE_URL: cliDb.url, TRADELEDGER_BASE_URL: proxy.baseUrl, TRADELEDGER_API_KEY: account.apiKey,
      TRADELEDGER_API_SECRET: account.secretKey, TRADELEDGER_API_PASSPHRASE: account.passphrase, TRADELEDGER_ACCOUNT_UID: account.uid,
    });
  });
  afterAll(async () => {
    process.env = saved;
    await cliDb?.drop();
  });

  const sync = async (): Promise<{ code: number; stdout: string }> => {
    let stdout = '';
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => { stdout += String(c); return true; });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(['sync', '--json', '--streams', 'spotFills', '--since', String(sandbox.world.now() - 700 * DAY_MS)]);
      return { code, stdout };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  };

  it('exits 3 (partial) naming the paging fault, and 0 once the exchange answers right', async () => {
    const firstPages = new Map<string, unknown>();
    proxy.rewrite((a) => {
      if (a.path !== fillsPath) return undefined;
      const window = `${a.query.get('startTime')}-${a.query.get('endTime')}`;
      if (a.page === 1) firstPages.set(window, a.json);
      return a.page === 2 ? firstPages.get(window) : undefined;
    });
    const faulty = await sync();
    expect(faulty.code).toBe(3);
    expect(faulty.stdout).toContain('EXCHANGE_PAGING_FAULT');
    proxy.rewrite(undefined);
    const clean = await sync();
    expect(clean.code).toBe(0);
  });
});
