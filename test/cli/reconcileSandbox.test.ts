import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { main } from '../../src/cli/main.js';

// `tradeledger reconcile` end to end: the real sandbox, a real sync, then reconcile. The
// sandbox's balances are the sum of its own history (issue 20 item 5), so after a sync from 120
// days back every balance is a match or an opening balance (history before --since), none is
// unexplained; and a history record deleted from the copy is named where the balances part.

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
    // A balanced exchange, read from --since: nothing unexplained; what came before is an opening balance.
    expect(rows.filter((x) => x.status === 'unexplained').map((x) => `${x.wallet} ${x.coin}: ${x.explanation}`)).toEqual([]);
    expect(counts.opening_balance).toBeGreaterThan(0);
    expect((counts.match ?? 0) + (counts.opening_balance ?? 0) + (counts.no_snapshot ?? 0)).toBe(rows.length);

    const text = await cli(['reconcile']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${rows.length} balance(s): ${counts.match} match, ${counts.opening_balance} opening balance, ${counts.unexplained} unexplained, ${counts.no_snapshot} without an exchange figure`);
  }, 240_000);

  it('names a fill deleted from the copy as the record where the exchange and the ledger part', async () => {
    // The newest spot fill of a coin whose spot balance is explained, deleted from the database
    // as a lost record would be: the exchange's spot bills still carry its legs.
    const { rows: [lost] } = await sql<{ account_uid: string; trade_id: string; coin: string; at: string }>`
      SELECT l.account_uid, l.source_id AS trade_id, l.coin, to_char(l.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM ledger l JOIN reconciliation r ON r.account_uid = l.account_uid AND r.wallet = 'spot' AND r.coin = l.coin AND r.status IN ('match', 'opening_balance')
      WHERE l.source = 'spot_fills' AND l.wallet = 'spot' AND l.kind IN ('trade_buy', 'trade_sell')
        -- not the coin's first record read: a missing first record looks like an older opening balance
        AND EXISTS (SELECT 1 FROM ledger e WHERE e.account_uid = l.account_uid AND e.wallet = 'spot' AND e.coin = l.coin AND e.ts < l.ts)
      ORDER BY l.ts DESC LIMIT 1`.execute(fresh.db);
    expect(lost, 'a spot fill of a coin whose balance is explained').toBeDefined();
    await sql`DELETE FROM spot_fills WHERE account_uid = ${lost!.account_uid} AND trade_id = ${lost!.trade_id}`.execute(fresh.db);
    const r = await cli(['reconcile', '--json', '--account', lost!.account_uid]);
    expect(r.code, r.stderr).toBe(0);
    const row = (JSON.parse(r.stdout) as { rows: Record<string, any>[] }).rows.find((x) => x.wallet === 'spot' && x.coin === lost!.coin)!;
    expect(row.status, JSON.stringify({ lost, row })).toBe('unexplained');
    expect(row.parted).toMatchObject({ source: 'spot_bills', at: lost!.at });
    expect(row.explanation).toContain('the ledger has no record at that time');
    const text = await cli(['reconcile', '--account', lost!.account_uid]);
    expect(text.stdout).toContain(lost!.at.slice(0, 10));
  }, 240_000);
});
