import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { fixtureSql } from './ledgerFixture.js';

// tax_transactions' own_account rule (sql/schema/functions/tax_transactions.sql) on the hand-made fixture, plus an internal
// deposit from sub-account B, one from a stranger's UID and one that names no sender.

let fresh: FreshDatabase;
let outRoot: string;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  await sql.raw(`
    INSERT INTO deposits (account_uid, order_id, trade_id, coin, type, dest, status, size, from_address, c_time, raw) VALUES
      ('A', 'd4', 'd4', 'USDT', 'deposit', 'internal_transfer', 'success', 30, 'B', '2025-07-01 00:00Z', '{}'),
      ('A', 'd5', 'd5', 'USDT', 'deposit', 'internal', 'success', 20, '1999999999', '2025-07-02 00:00Z', '{}'),
      ('A', 'd6', 'd6', 'USDT', 'deposit', 'internal', 'success', 10, '', '2025-07-03 00:00Z', '{}');`).execute(fresh.db);
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-own-'));
});
afterAll(async () => {
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

async function own(account: string): Promise<string[]> {
  const { rows } = await sql<{ r: string }>`
    SELECT source || ':' || source_id || ' ' || kind || ' ' || account_uid AS r
    FROM tax_transactions('2025-01-01Z', '2026-01-01Z', ${account}) WHERE own_account ORDER BY 1`.execute(fresh.db);
  return rows.map((r) => r.r);
}

describe('own-account movements', () => {
  it('all accounts: main <-> sub transfers, spot <-> futures/margin moves and a deposit from the sub-account', async () => {
    expect(await own('')).toEqual([
      'deposits:d4 deposit A',
      'futures_bills:b0 transfer_in A',
      'margin_records:m11 transfer_in A',
      'margin_records:m12 transfer_out A',
      'transfers:x1 transfer_in B',
      'transfers:x1 transfer_out A',
      'transfers:x3 transfer_out A',
    ]);
  });

  it('one account: a transfer with its sub-account has a leg outside and is no longer own-account', async () => {
    expect(await own('A')).toEqual([
      'futures_bills:b0 transfer_in A',
      'margin_records:m11 transfer_in A',
      'margin_records:m12 transfer_out A',
      'transfers:x3 transfer_out A',
    ]);
  });

  it('data-quality.csv names the unmatched own-account net and the deposit without a sender', async () => {
    const outDir = path.join(outRoot, 'native');
    await runReports({ databaseUrl: fresh.url, format: 'native', outDir, period: reportPeriod({ year: '2025' }) });
    const rows = parse(await readFile(path.join(outDir, 'data-quality.csv')), { columns: true }) as Record<string, string>[];
    // d4 (30 USDT from B) has no withdrawal in B: with m11/m12 (+5), 35 USDT do not net to zero.
    // (kind 'unpriced' rows, for want of candles in this fixture, are tested in test/valuation.)
    // (tool_left_out rows, the one-sided margin legs cointracker.csv leaves out, are tested in reportFormats.test.ts.)
    // (kind 'unsettled': the fixture's records still open, listed because they are past their limit.)
    const open = await sql<{ id: string }>`SELECT record_id AS id FROM open_records WHERE since < now() - open_limit`.execute(fresh.db);
    expect(rows.filter((r) => r.kind === 'unsettled').map((r) => r.record_id).sort()).toEqual(open.rows.map((r) => r.id).sort());
    expect(rows.filter((r) => !['record', 'history_gap', 'unpriced', 'tool_left_out', 'unsettled'].includes(r.kind!)).map((r) => `${r.kind} ${r.source} ${r.record_id}`)).toEqual([
      'own_movement_unmatched tax_transactions USDT',
      'unknown_counterparty deposits d6',
    ]);
    expect(rows.find((r) => r.kind === 'own_movement_unmatched')?.problem).toContain('net to 35 over 7 legs');
  });

  it("koinly keeps the stranger's and the unnamed deposits as plain deposits and leaves the sub-account's out", async () => {
    const outDir = path.join(outRoot, 'koinly');
    await runReports({ databaseUrl: fresh.url, format: 'koinly', outDir, period: reportPeriod({ year: '2025' }) });
    const rows = parse(await readFile(path.join(outDir, 'koinly.csv')), { columns: true }) as Record<string, string>[];
    const deposits = rows.filter((r) => /deposits:d[456]/.test(r.Description!)).map((r) => `${r.Description!.split(' ').at(-1)} ${r['Received Amount']} ${r.Label}`);
    expect(deposits).toEqual(['deposits:d5 20 ', 'deposits:d6 10 ']);
  });
});
