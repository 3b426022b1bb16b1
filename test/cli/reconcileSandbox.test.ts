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
        expect(['spot_bills', 'futures_bills', 'futures_account_snapshots', 'margin_records']).toContain(row.exchangeSource);
      }
      if (row.status === 'match') expect(row.difference).toMatch(/^-?0(\.0+)?$/);
      if (row.status === 'opening_balance') expect(row.openingBalance).toBe(row.difference);
      // Margin records' total is the wallet's running balance (sql/migrations/0073): checked too.
      if (row.wallet.endsWith('_margin')) expect(row.exchangeSource).toBe('margin_records');
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
    // Every wallet the sandbox keeps is checked against an exchange figure: none is left unreported.
    expect(rows.filter((x) => x.status === 'no_snapshot').map((x) => `${x.wallet} ${x.coin}`)).toEqual([]);

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

  it('names where a margin wallet parts when a margin record is deleted from the copy', async () => {
    // A margin record in the middle of a series that reconciles, deleted as a lost record would
    // be. Its change is missing from the ledger, and the next record's total no longer follows from
    // the one before: reconcile names that next record, the first where the balances part.
    // The whole history this time (the 120 days above hold no margin record in the tiny world).
    const whole = await freshDatabase();
    const db = whole.db;
    process.env.DATABASE_URL = whole.url;
    try {
    const sync = await cli(['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    const all = JSON.parse((await cli(['reconcile', '--json'])).stdout) as { rows: Record<string, any>[] };
    const margins = all.rows.filter((x) => x.wallet.endsWith('_margin'));
    expect(margins.length).toBeGreaterThan(0);
    expect(margins.map((x) => `${x.wallet} ${x.coin} ${x.status} ${x.exchangeSource}`)).toEqual(margins.map((x) => `${x.wallet} ${x.coin} match margin_records`));
    const { rows: [lost] } = await sql<{ account_uid: string; margin_type: string; id: string; coin: string; change: string; next_at: string; next_id: string }>`
      WITH c AS (
        SELECT m.*, lead(m.record_id) OVER w AS next_id, lead(m.ts) OVER w AS next_at, row_number() OVER w AS n
        FROM margin_chain m WINDOW w AS (PARTITION BY m.account_uid, m.wallet, m.coin ORDER BY m.ts, length(m.record_id), m.record_id))
      SELECT c.account_uid, replace(c.wallet, '_margin', '') AS margin_type, c.record_id AS id, c.coin, c.change::text AS change, c.next_id,
             to_char(c.next_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS next_at
      FROM c JOIN reconciliation r ON r.account_uid = c.account_uid AND r.wallet = c.wallet AND r.coin = c.coin AND r.status IN ('match', 'opening_balance')
      WHERE c.n > 1 AND c.next_at > c.ts AND c.change <> 0
        AND NOT EXISTS (SELECT 1 FROM margin_chain o WHERE o.account_uid = c.account_uid AND o.wallet = c.wallet AND o.coin = c.coin AND o.ts = c.next_at AND o.record_id <> c.next_id)
      ORDER BY c.ts DESC LIMIT 1`.execute(db);
    expect(lost, 'a margin record in a series that reconciles').toBeDefined();
    await sql`DELETE FROM margin_records WHERE account_uid = ${lost!.account_uid} AND margin_type = ${lost!.margin_type} AND id = ${lost!.id}`.execute(db);
    const r = await cli(['reconcile', '--json', '--account', lost!.account_uid]);
    expect(r.code, r.stderr).toBe(0);
    const row = (JSON.parse(r.stdout) as { rows: Record<string, any>[] }).rows.find((x) => x.wallet === `${lost!.margin_type}_margin` && x.coin === lost!.coin)!;
    expect(row.status, JSON.stringify({ lost, row })).toBe('unexplained');
    expect(row.parted).toMatchObject({ source: 'margin_records', recordId: lost!.next_id, at: lost!.next_at });

    // A `total` that is not a running balance (here: each record's own amount) breaks nearly every
    // link: that wallet is reported as not checked, not as a difference that is not there.
    const uid = lost!.account_uid;
    const kind = lost!.margin_type === 'crossed' ? 'isolated' : 'crossed';
    await sql`UPDATE margin_records SET total = abs(amount) WHERE account_uid = ${uid} AND margin_type = ${kind}`.execute(db);
    const after = JSON.parse((await cli(['reconcile', '--json', '--account', uid])).stdout) as { rows: Record<string, any>[] };
    const crossed = after.rows.filter((x) => x.wallet === `${kind}_margin`);
    expect(crossed.length).toBeGreaterThan(0);
    expect(crossed.map((x) => x.status)).toEqual(crossed.map(() => 'no_snapshot'));
    expect(crossed[0]!.explanation).toContain('does not read as this wallet');
    } finally {
      process.env.DATABASE_URL = fresh.url;
      await whole.drop();
    }
  }, 240_000);
});
