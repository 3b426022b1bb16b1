import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { main } from '../../src/cli/main.js';
import { runGains } from '../../src/gains/runGains.js';
import { reconcileFixtureSql } from './reconcileFixture.js';

// `tradeledger reconcile` (sql/schema/views/reconciliation.sql, reports/reconciliation.sql, reports/opening-balances.sql) on
// hand-made accounts (reconcileFixture.ts): one that matches, one whose first records are
// missing (an opening balance), one with a deposit deleted in the middle (unexplained).

let fresh: FreshDatabase;
let out: string;
const saved = { ...process.env };

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(`INSERT INTO accounts (uid, name, kind) VALUES ('M', 'matching', 'main'), ('O', 'opening', 'sub'), ('U', 'unexplained', 'sub');`).execute(fresh.db);
  await sql.raw(reconcileFixtureSql).execute(fresh.db);
  out = await mkdtemp(path.join(tmpdir(), 'tl-recon-'));
  process.env.DATABASE_URL = fresh.url;
});
afterAll(async () => {
  process.env = saved;
  await fresh?.drop();
  if (out) await rm(out, { recursive: true, force: true });
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

type JsonRow = { account: string; wallet: string; coin: string; status: string; exchangeBalance: string | null; ledgerBalance: string; difference: string | null; openingBalance: string | null; parted: Record<string, string | null> | null; explanation: string };
const json = async (args: string[] = []) => {
  const r = await cli(['reconcile', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { counts: Record<string, number>; rows: JsonRow[] };
};
const row = (rows: JsonRow[], key: string) => rows.find((r) => `${r.account}/${r.wallet}/${r.coin}` === key);

describe('tradeledger reconcile', () => {
  it('--json classes every account, wallet and coin and names the record where the balances part', async () => {
    const { counts, rows } = await json();
    expect(counts).toEqual({ match: 3, opening_balance: 1, unexplained: 1, no_snapshot: 1 });
    expect(rows.map((r) => `${r.account}/${r.wallet}/${r.coin} ${r.status}`)).toEqual([
      'M/spot/BTC match', 'M/spot/USDT match', 'O/spot/BTC opening_balance', 'O/spot/USDT match',
      'U/crossed_margin/USDT no_snapshot', 'U/spot/USDT unexplained',
    ]);
    expect(row(rows, 'M/spot/USDT')).toMatchObject({ exchangeBalance: '398.5', ledgerBalance: '398.5', difference: '0' });
    expect(row(rows, 'O/spot/BTC')).toMatchObject({ exchangeBalance: '2.5', ledgerBalance: '0.5', difference: '2', openingBalance: '2', parted: null });
    // The deleted 50 USDT deposit: the exchange's bill 302 (a deposit at 11:30 on 2 Feb) is where
    // the running balances part; before it they agreed.
    expect(row(rows, 'U/spot/USDT')).toMatchObject({
      exchangeBalance: '130', ledgerBalance: '80', difference: '50',
      parted: { at: '2025-02-02T11:30:00.000Z', source: 'spot_bills', recordId: '302', kind: 'deposit', change: '50', exchangeBalance: '150', ledgerBalance: '100' },
    });
    expect(row(rows, 'U/spot/USDT')!.explanation).toContain('the ledger has no record at that time');
    expect(row(rows, 'U/crossed_margin/USDT')!.explanation).toMatch(/no margin balance/);
  });

  it('prints the same as text, the unexplained difference first with its explanation', async () => {
    const r = await cli(['reconcile']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('6 balance(s): 3 match, 1 opening balance, 1 unexplained, 1 without an exchange figure');
    expect(lines[2]).toMatch(/^U\/spot\/USDT\s+130\s+80\s+50\s+unexplained$/);
    expect(lines[3]).toContain('the running balances part at spot_bills 302 (deposit, 50 USDT, 2025-02-02 11:30:00.000Z)');
    expect(lines[4]).toMatch(/^O\/spot\/BTC\s+2\.5\s+0\.5\s+2\s+opening_balance$/);
    expect(lines[5]).toContain('2 BTC was held before the first record read (2025-02-01 10:00:00Z)');
    expect(r.stdout).toMatch(/^M\/spot\/USDT\s+398\.5\s+398\.5\s+0\s+match$/m);
  });

  it('notes the sub-accounts not synced of an account with unexplained balances, and only those', async () => {
    // U (unexplained) lists two sub-accounts: O, which is synced, and U1, which is not; M (all
    // matching) lists M9, not synced. Spec E19: "Only records where the caller is the initiator
    // are returned", so a transfer U1 initiated is in U1's history only.
    await sql.raw(`INSERT INTO sub_account_snapshots (snapshot_at, main_uid, sub_account_uid, raw) VALUES
      ('2025-03-01Z', 'U', 'U1', '{}'), ('2025-03-02Z', 'U', 'U1', '{}'), ('2025-03-01Z', 'U', 'O', '{}'), ('2025-03-01Z', 'M', 'M9', '{}')`).execute(fresh.db);
    try {
      const text = await cli(['reconcile']);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toBe('tradeledger: note: 1 unexplained balance(s) of account U, whose sub-account(s) U1 are not synced: a transfer a '
        + 'sub-account initiated is in its own history only, so this ledger may lack it. Add them under "subAccounts" in the config (README), sync, and run reconcile again.\n');
      expect((await json()) as unknown).toMatchObject({ unsyncedSubAccounts: [{ account: 'U', unexplained: 1, subAccounts: ['U1'] }] });
      // Only the account asked for: M has no unexplained balance, so no note for its M9.
      expect((await cli(['reconcile', '--account', 'M'])).stderr).toBe('');
      // Once U1 is synced, nothing to say.
      await sql.raw(`INSERT INTO accounts (uid, name, kind, parent_uid) VALUES ('U1', 'u1', 'sub', 'U')`).execute(fresh.db);
      expect((await cli(['reconcile'])).stderr).toBe('');
      expect(await json()).not.toHaveProperty('unsyncedSubAccounts');
    } finally {
      await sql.raw(`DELETE FROM sub_account_snapshots; DELETE FROM accounts WHERE uid = 'U1'`).execute(fresh.db);
    }
  });

  it('--account limits the rows and refuses an unknown account with a fix', async () => {
    const { rows } = await json(['--account', 'O']);
    expect(rows.map((r) => r.coin)).toEqual(['BTC', 'USDT']);
    const bad = await cli(['reconcile', '--account', 'nobody']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no account with UID "nobody"[\s\S]*fix: Use one of: M \(matching\)/);
  });

  it('round trip: the filled opening-balances.csv, imported, makes the coin match and gives gains its cost', async () => {
    const before = await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2025, fiat: 'USD', tz: 'UTC', account: 'O', outDir: path.join(out, 'gains-before') });
    const costBefore = await sql<{ cost: string }>`SELECT sum(cost)::text AS cost FROM gains_matches WHERE run_id = ${before.runId} AND asset = 'BTC'`.execute(fresh.db);

    const w = await cli(['reconcile', '--out', path.join(out, 'recon')]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toContain('opening-balances.csv (1 lines)');
    const text = await readFile(path.join(out, 'recon', 'opening-balances.csv'), 'utf8');
    const [header, ...lines] = parse(text) as string[][];
    // The columns koinly.csv writes.
    expect(header).toEqual(['Date', 'Sent Amount', 'Sent Currency', 'Received Amount', 'Received Currency', 'Fee Amount', 'Fee Currency', 'Net Worth Amount', 'Net Worth Currency', 'Label', 'Description', 'TxHash']);
    expect(lines).toEqual([['2025-02-01 09:59 UTC', '', '', '2', 'BTC', '', '', '', '', '', expect.stringContaining('Opening balance of account O, spot wallet'), 'opening-balance:O:spot:BTC']]);

    // The accountant fills the cost: 2 BTC bought for 80000 USD.
    const filled = text.replace(',2,BTC,,,,,,', ',2,BTC,,,80000,USD,,');
    expect(filled).not.toBe(text);
    await writeFile(path.join(out, 'opening-filled.csv'), filled);
    const imp = await cli(['import', 'transactions', path.join(out, 'opening-filled.csv'), '--wallet', 'opening-balances']);
    expect(imp.code, imp.stderr).toBe(0);

    const { rows } = await json();
    expect(row(rows, 'O/spot/BTC')).toMatchObject({ status: 'match', exchangeBalance: '2.5', ledgerBalance: '2.5', difference: '0' });
    // The imported line counts for O's spot wallet, not as an account of its own.
    expect(rows.some((r) => r.account === 'opening-balances')).toBe(false);
    expect(row(rows, 'U/spot/USDT')!.status).toBe('unexplained');

    // FIFO: the 0.5 BTC sold on 2 Feb come out of the 2 BTC opening lot: cost 0.5 x 40000.
    const after = await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2025, fiat: 'USD', tz: 'UTC', account: 'O', outDir: path.join(out, 'gains-after') });
    const matches = await sql<{ cost: string; pool: string; quantity: string }>`
      SELECT cost::text, pool, quantity::text FROM gains_matches WHERE run_id = ${after.runId} AND asset = 'BTC' ORDER BY seq`.execute(fresh.db);
    expect(matches.rows).toEqual([{ cost: '20000', pool: expect.any(String), quantity: '0.5' }]);
    expect(costBefore.rows[0]!.cost).not.toBe('20000');
    // The stated cost is not flagged as a market-value guess.
    const flagged = await sql<{ n: string }>`SELECT count(*)::text AS n FROM gains_problems WHERE run_id = ${after.runId} AND detail LIKE '%2 BTC%'`.execute(fresh.db);
    expect(flagged.rows[0]!.n).toBe('0');
  });
});
