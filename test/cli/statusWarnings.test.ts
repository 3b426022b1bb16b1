import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { main } from '../../src/cli/main.js';
import { runGains } from '../../src/gains/runGains.js';
import { reconcileFixtureSql } from '../reports/reconcileFixture.js';

// `tradeledger status` ranks each account's warnings by what they do to a tax figure
// (src/portal/accountWarnings.ts). Account U of the reconcile fixture gets one of each kind:
// an unexplained balance, a deposit pending for months (account O's, two hours old, is only in
// flight), a disposal with no cost (1 ETH sold that was
// never bought), history before the default start of its first sync, and a spot-order gap that
// the spot fills cover.

let fresh: FreshDatabase;
let out: string;
const saved = { ...process.env };

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(`INSERT INTO accounts (uid, name, kind) VALUES ('M', 'matching', 'main'), ('O', 'opening', 'sub'), ('U', 'unexplained', 'sub');`).execute(fresh.db);
  await sql.raw(reconcileFixtureSql).execute(fresh.db);
  await sql.raw(`
    INSERT INTO sync_state (account_uid, stream, watermark, status) VALUES
      ('M', 'spotFills', '2025-03-01Z', 'idle'), ('O', 'spotFills', '2025-03-01Z', 'idle'),
      ('U', 'spotFills', '2025-03-01Z', 'idle'), ('U', 'spotOrders', '2025-03-01Z', 'idle');
    INSERT INTO history_gaps (account_uid, stream, gap_from, gap_to, reason) VALUES
      ('U', 'spotOrders', '2024-06-01Z', '2024-12-01Z', 'X1 spotHistoryOrders serves only the last 90 days'),
      ('U', 'spotFills', '1970-01-01Z', '2023-03-01Z', 'the first sync started 730 days back (sync.historyDays, the default)');
    INSERT INTO deposits (account_uid, order_id, coin, status, size, c_time, raw) VALUES
      ('U', 'd-u9', 'USDT', 'pending', 7, '2025-02-20Z', '{}'),
      ('O', 'd-o9', 'USDT', 'pending', 5, now() - interval '2 hours', '{}');
    INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, size, amount, c_time, raw) VALUES
      ('U', 'f-u1', 'o-u1', 'ETHUSDT', 'sell', 1, 2000, '2025-02-05Z', '{}');`).execute(fresh.db);
  out = await mkdtemp(path.join(tmpdir(), 'tl-status-warn-'));
  await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2025, fiat: 'USD', tz: 'UTC', outDir: out });
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

describe('tradeledger status: warnings ranked by what they do to a tax figure', () => {
  it('--json lists red (tax figure changes) before amber (to complete) before info (none)', async () => {
    const r = await cli(['status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { warnings } = JSON.parse(r.stdout) as { warnings: { account: string; warnings: { severity: string; code: string; text: string }[] }[] };
    const u = warnings.find((w) => w.account === 'U')!.warnings;
    expect(u.map((w) => `${w.severity} ${w.code}`)).toEqual([
      'red unexplained_balance', 'red unsettled', 'red disposal_without_cost', 'amber default_start', 'info order_gap_covered',
    ]);
    expect(u.find((w) => w.code === 'order_gap_covered')!.text).toContain('orders carry none');
    expect(u.find((w) => w.code === 'default_start')!.text).toContain('History before 2023-03-01');
    // As far back as that first sync started (its gap's reason), not a fixed 2 years.
    expect(u.find((w) => w.code === 'default_start')!.text).toContain("(the first sync's default start, 730 days back)");
    const o = warnings.find((w) => w.account === 'O')!.warnings;
    expect(o.map((w) => `${w.severity} ${w.code}`)).toContain('amber opening_balance');
    // A deposit in flight for two hours is the normal state of a live account: info, not red.
    // U's deposit, pending since 2025-02-20, is past the 3-day limit (docs/ledger.md): red.
    expect(o.map((w) => `${w.severity} ${w.code}`)).toContain('info in_flight');
    expect(o.map((w) => w.code)).not.toContain('unsettled');
    expect(u.find((w) => w.code === 'unsettled')!.text).toContain('the oldest since 2025-02-20');
    expect(warnings.find((w) => w.account === 'M')!.warnings).toEqual([]);
  });

  it('prints the same ranking as text, with each fix', async () => {
    const r = await cli(['status']);
    expect(r.code, r.stderr).toBe(0);
    const block = r.stdout.slice(r.stdout.indexOf('  unexplained:'));
    const lines = block.split('\n').slice(1, 6);
    expect(lines.map((l) => l.trim().split(' ')[0])).toEqual(['red', 'red', 'red', 'amber', 'info']);
    expect(lines[0]).toContain('Fix: tradeledger reconcile names the first record where the balances part.');
    expect(lines[3]).toContain("Fix: run tradeledger sync --since YYYY-MM-DD (the account's opening date): the older history is read and added.");
    expect(r.stdout).toMatch(/^ {2}matching: none$/m);
    expect(r.stdout).toContain("history gap all: before 2023-03-01 (the first sync's default start");
  });

  it("counts the no-cost disposals of an account's own gains run beside those of a run over every account", async () => {
    // The run over every account (account '') finds U's disposal through its ledger rows; a run
    // for U alone names U itself. Each newest run per scope counts, as before.
    const own = await mkdtemp(path.join(tmpdir(), 'tl-status-warn-u-'));
    try {
      await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2025, fiat: 'USD', tz: 'UTC', outDir: own, account: 'U' });
    } finally {
      await rm(own, { recursive: true, force: true });
    }
    const r = await cli(['status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { warnings } = JSON.parse(r.stdout) as { warnings: { account: string; warnings: { code: string; text: string }[] }[] };
    expect(warnings.find((w) => w.account === 'U')!.warnings.find((w) => w.code === 'disposal_without_cost')!.text).toMatch(/^2 disposals in the newest gains run had no cost/);
    expect(warnings.find((w) => w.account === 'M')!.warnings).toEqual([]);
  });
});
