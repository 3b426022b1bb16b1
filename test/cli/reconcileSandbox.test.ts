import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { main } from '../../src/cli/main.js';

// `tradeledger reconcile` end to end: the real sandbox, a real sync, then reconcile. It checks
// the shape of what reconcile says, not that the sandbox's balances match (that is the sandbox's
// business: issue 20 item 5).

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
const saved = { ...process.env };

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  const account = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
  Object.assign(process.env, {
    DATABASE_URL: fresh.url, TRADELEDGER_BASE_URL: sandbox.baseUrl, TRADELEDGER_API_KEY: account.apiKey,
    TRADELEDGER_API_SECRET: account.secretKey, TRADELEDGER_API_PASSPHRASE: account.passphrase, TRADELEDGER_ACCOUNT_UID: account.uid,
  });
});
afterAll(async () => {
  process.env = saved;
  await sandbox?.close();
  await fresh?.drop();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => { stdout += String(c); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => { stderr += String(c); return true; });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

const statuses = ['match', 'opening_balance', 'unexplained', 'no_snapshot'];
const decimal = /^-?\d+(\.\d+)?$/;

describe('tradeledger reconcile after a sync of the sandbox', () => {
  it('sync --dry-run lists the history before a first sync\'s default start as a gap, with --since as its fix', async () => {
    const r = await cli(['sync', '--dry-run', '--streams', 'spotFills']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/main\/spotFills\/all .* gap before \d{4}-\d\d-\d\d \(default start; --since\)/);
    const since = await cli(['sync', '--dry-run', '--streams', 'spotFills', '--since', String(sandbox.world.now() - 30 * DAY_MS)]);
    expect(since.stdout).not.toContain('default start');
  });

  it('classes every account, wallet and coin and explains each that is not a match', async () => {
    const since = String(sandbox.world.now() - 120 * DAY_MS);
    const sync = await cli(['sync', '--since', since, '--json']);
    expect(sync.code, sync.stderr).toBe(0);

    const r = await cli(['reconcile', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { counts, rows } = JSON.parse(r.stdout) as { counts: Record<string, number>; rows: Record<string, any>[] };
    expect(Object.keys(counts).sort()).toEqual([...statuses].sort());
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(statuses).toContain(row.status);
      expect(row.ledgerBalance).toMatch(decimal);
      expect(row.explanation.length).toBeGreaterThan(10);
      if (row.status === 'no_snapshot') expect(row.exchangeBalance).toBeNull();
      else {
        expect(row.exchangeBalance).toMatch(decimal);
        expect(row.difference).toMatch(decimal);
        expect(['spot_bills', 'futures_bills', 'futures_account_snapshots']).toContain(row.exchangeSource);
      }
      if (row.status === 'match') expect(row.difference).toMatch(/^-?0(\.0+)?$/);
      if (row.status === 'opening_balance') expect(row.openingBalance).toBe(row.difference);
      if (row.wallet.endsWith('_margin')) expect(row.status).toBe('no_snapshot');
      // Spot bills carry a running balance: every unexplained spot difference names its record.
      if (row.status === 'unexplained' && row.exchangeSource === 'spot_bills') {
        expect(row.parted).toMatchObject({ source: 'spot_bills', recordId: expect.stringMatching(/^\d+$/), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      }
    }
    // The spot wallet is checked against the exchange's own figure.
    expect(rows.some((x) => x.wallet === 'spot' && x.exchangeSource === 'spot_bills')).toBe(true);

    const text = await cli(['reconcile']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${rows.length} balance(s): ${counts.match} match, ${counts.opening_balance} opening balance, ${counts.unexplained} unexplained, ${counts.no_snapshot} without an exchange figure`);
  }, 240_000);
});
