import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { Decimal as DecimalBase } from 'decimal.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import type { ReportFormat } from '../../src/reports/reportFormats.js';
import { fixtureSql } from './ledgerFixture.js';

// Amounts reach 30+ significant digits; decimal.js rounds to 20 by default.
const Decimal = DecimalBase.clone({ precision: 200 });
type Decimal = InstanceType<typeof Decimal>;

let fresh: FreshDatabase;
let outRoot: string;
/** The ledger's own per-coin sums for 2025 (UTC), the figure every format must reproduce. */
let ledgerTotals: Record<string, string>;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-reports-'));
  const { rows } = await sql<{ coin: string; total: string }>`
    SELECT coin, sum(amount)::text AS total FROM ledger
    WHERE ts >= '2025-01-01Z' AND ts < '2026-01-01Z' GROUP BY coin`.execute(fresh.db);
  ledgerTotals = Object.fromEntries(rows.map((r) => [r.coin, new Decimal(r.total).toFixed()]));
});
afterAll(async () => {
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

async function run(format: ReportFormat, account = '') {
  const outDir = path.join(outRoot, `${format}-${account || 'all'}`);
  const result = await runReports({ databaseUrl: fresh.url, format, account, outDir, force: true, period: reportPeriod({ year: '2025' }) });
  return { ...result, outDir };
}

async function csv(dir: string, file: string): Promise<{ header: string[]; records: Record<string, string>[]; text: string }> {
  const text = await readFile(path.join(dir, file), 'utf8');
  const header = (parse(text, { to_line: 1 }) as string[][])[0] ?? [];
  return { header, records: parse(text, { columns: true }) as Record<string, string>[], text };
}

/** received - sent - fee per coin, as a tax tool would compute the year's net movement. */
function netPerCoin(records: Record<string, string>[], cols: { in: [string, string]; out: [string, string]; fee?: [string, string] }) {
  const net = new Map<string, Decimal>();
  const add = (coin: string | undefined, amount: string | undefined, sign: 1 | -1) => {
    if (!coin || !amount) return;
    net.set(coin, (net.get(coin) ?? new Decimal(0)).plus(new Decimal(amount).times(sign)));
  };
  for (const r of records) {
    add(r[cols.in[1]], r[cols.in[0]], 1);
    add(r[cols.out[1]], r[cols.out[0]], -1);
    if (cols.fee) add(r[cols.fee[1]], r[cols.fee[0]], -1);
  }
  return Object.fromEntries([...net].map(([coin, d]) => [coin, d.toFixed()]));
}

/** The ledger's totals with some USDT taken out (what a format documents it leaves out). */
const lessUsdt = (totals: Record<string, string>, usdt: string) =>
  ({ ...totals, USDT: new Decimal(totals.USDT!).minus(usdt).toFixed() });

const noExponent = (text: string) => expect(text).not.toMatch(/\d[eE][+-]?\d/);

describe('native format', () => {
  it('writes every subject file, with exact amounts and totals equal to the database', async () => {
    const { outDir, manifest } = await run('native');
    expect((await readdir(outDir)).sort()).toEqual([
      'balances.csv', 'corrections.csv', 'data-quality.csv', 'deposits-withdrawals.csv', 'fees.csv', 'futures-pnl.csv', 'ledger.csv',
      'manifest.json', 'margin-records.csv', 'reconciliation.csv', 'trades.csv', 'transfers.csv', 'valued-ledger.csv',
    ]);
    const ledger = await csv(outDir, 'ledger.csv');
    expect(ledger.header).toEqual(['time_utc', 'time_local', 'account_uid', 'wallet', 'coin', 'amount', 'kind', 'source',
      'source_id', 'leg', 'order_id', 'symbol', 'counterparty', 'demo']); // demo: sql/schema/views/ledger.sql
    const sums = new Map<string, Decimal>();
    for (const r of ledger.records) sums.set(r.coin!, (sums.get(r.coin!) ?? new Decimal(0)).plus(r.amount!));
    expect(Object.fromEntries([...sums].map(([c, d]) => [c, d.toFixed()]))).toEqual(ledgerTotals);
    expect(ledger.text).toContain(',0.000000089,trade_buy,');
    expect(ledger.text).toContain(',-12345678901234.123456789012,trade_sell,');
    noExponent(ledger.text);

    const trades = await csv(outDir, 'trades.csv');
    // "-0.2 USDT" (a fee refund) is text starting with "-": written as text so no spreadsheet
    // evaluates it (src/reports/spreadsheetSafeCell.ts).
    expect(trades.records.map((r) => `${r.trade_id} ${r.base}/${r.quote} ${r.fees}`)).toEqual([
      'f1 BTC/USDT 0.5 BGB', "f3 BTC/USDT '-0.2 USDT", 'f2 ETH/USDT 3.5 USDT; 0.1 BGB',
    ]);
    const fees = await csv(outDir, 'fees.csv');
    const feePaid = fees.records.filter((r) => r.kind === 'fee').reduce((s, r) => s.plus(r.paid!), new Decimal(0));
    // spot: 0.5 + 3.5 + 0.1 - 0.2; withdrawal 1; isolated margin 0.07; futures 0.3 + 0.1
    expect(feePaid.toFixed()).toBe('5.37');
    const dw = await csv(outDir, 'deposits-withdrawals.csv');
    expect(dw.records.map((r) => `${r.order_id} ${r.status} ${r.dest} ${r.in_ledger}`)).toEqual([
      'd1 success on_chain true', 'd2 pending on_chain false', 'd3 failed internal false', 'w1 success on_chain true', 'w2 pending on_chain false',
    ]);
    const futures = await csv(outDir, 'futures-pnl.csv');
    expect(futures.records.map((r) => `${r.bill_id} ${r.realized_pnl} ${r.trading_fee} ${r.funding_fee} ${r.net}`)).toEqual([
      'b1 12.5 -0.3 0 12.2', 'b2 0 0 -0.02 -0.02', 'b3 0 -0.1 0 -0.1',
    ]);
    const quality = await csv(outDir, 'data-quality.csv');
    expect(quality.records.filter((r) => r.kind !== 'unpriced' && r.kind !== 'unsettled').map((r) => `${r.kind} ${r.source}`)).toEqual(['history_gap futuresOrders/USDT-FUTURES',
      'own_movement_unmatched tax_transactions', 'record spot_bills', ...Array(7).fill('tool_left_out margin_records')]);
    // The one-sided margin legs cointracker.csv leaves out, and the loans koinly.csv and cointracker.csv leave out.
    expect(quality.records.filter((r) => r.kind === 'tool_left_out').map((r) => r.record_id).sort()).toEqual(
      ['m10@crossed_margin', 'm1@crossed_margin', 'm1@isolated_margin', 'm2@crossed_margin', 'm7@crossed_margin', 'm8@crossed_margin', 'm9@crossed_margin']);
    expect(quality.records.find((r) => r.record_id === 'm1@crossed_margin')?.problem).toMatch(/^left out of koinly\.csv and cointracker\.csv: loan principal \(borrow 100 USDT\)/);
    // The fixture's records still open (pending since 2025) are past their limit (issue 20).
    const open = await sql<{ id: string }>`SELECT record_id AS id FROM open_records WHERE since < now() - open_limit ORDER BY 1`.execute(fresh.db);
    expect(open.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['d2', 'w2']));
    expect(quality.records.filter((r) => r.kind === 'unsettled').map((r) => r.record_id).sort()).toEqual(open.rows.map((r) => r.id).sort());
    // Margin transfer_in 10 and transfer_out 5 have no spot leg in the fixture: 5 USDT unmatched.
    expect(quality.records.find((r) => r.kind === 'own_movement_unmatched')).toMatchObject({ record_id: 'USDT' });
    expect(quality.records.find((r) => r.kind === 'own_movement_unmatched')?.problem).toContain('net to 5 over 6 legs');
    // No candles in this fixture: the BTC and BGB rows have no USD value (USDT ones do, at 1 USD).
    const unpriced = quality.records.filter((r) => r.kind === 'unpriced');
    expect(unpriced.length).toBeGreaterThan(0);
    expect(unpriced.every((r) => /^no USD value for (BTC|BGB):/.test(r.problem!)), unpriced.map((r) => r.problem).join('\n')).toBe(true);
    const balances = await csv(outDir, 'balances.csv');
    expect(balances.records.find((r) => r.account_uid === 'B')).toMatchObject({ wallet: 'spot', coin: 'USDT', ledger_balance: '250' });

    expect(manifest.gaps).toEqual([{ account: 'A', stream: 'futuresOrders', partition: 'USDT-FUTURES',
      from: '2024-01-01T00:00:00.000Z', to: '2025-09-01T00:00:00.000Z', reason: 'E21 serves only the last 90 days' }]);
    expect(manifest.watermarks).toEqual([expect.objectContaining({ account: 'A', stream: 'spotFills', watermark: '2026-01-05T00:00:00.000Z' })]);
  });

  it('lists a SHA-256 and row count in the manifest that match each file', async () => {
    const { outDir, manifestPath } = await run('native');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: { file: string; rows: number; sha256: string }[] };
    expect(manifest.files).toHaveLength(12); // corrections.csv: sql/migrations/0067_ledger_corrections.sql
    for (const f of manifest.files) {
      const bytes = await readFile(path.join(outDir, f.file));
      expect(createHash('sha256').update(bytes).digest('hex'), f.file).toBe(f.sha256);
      expect((await csv(outDir, f.file)).records.length, f.file).toBe(f.rows);
    }
  });

  it('limits every file to one account with --account', async () => {
    const { outDir } = await run('native', 'B');
    const ledger = await csv(outDir, 'ledger.csv');
    expect(ledger.records.map((r) => `${r.account_uid} ${r.amount} ${r.kind}`)).toEqual(['B 250 transfer_in']);
  });
});

describe('tax tool formats', () => {
  it('koinly: universal columns, UTC dates, labels, and the ledger\'s totals', async () => {
    const { outDir } = await run('koinly');
    const k = await csv(outDir, 'koinly.csv');
    expect(k.header).toEqual(['Date', 'Sent Amount', 'Sent Currency', 'Received Amount', 'Received Currency', 'Fee Amount',
      'Fee Currency', 'Net Worth Amount', 'Net Worth Currency', 'Label', 'Description', 'TxHash']);
    for (const r of k.records) expect(r.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    // Own-account movements are left out: x1 (A -> B) and x3/b0 (spot -> futures) net to 0, the
    // margin transfers m11/m12 to +5 USDT. So are borrow and repay (100 + 7 - 50 USDT): Koinly
    // reads a loan as a purchase and a repayment as a sale, tagged or not, "a receipt of a loan in
    // crypto is considered an acquisition, equivalent to purchasing crypto at market price" and
    // "Repayment of a crypto loan in Koinly is equivalent to a disposal"
    // (https://support.koinly.io/en/articles/9490026-crypto-loans-repayments-and-collateral),
    // where the ledger's gains take principal as neither.
    expect(netPerCoin(k.records, { in: ['Received Amount', 'Received Currency'], out: ['Sent Amount', 'Sent Currency'], fee: ['Fee Amount', 'Fee Currency'] }))
      .toEqual(lessUsdt(ledgerTotals, '62'));
    expect(k.records.filter((r) => /transfers:|m11|m12|futures_bills:b0|^(borrow|repay) /.test(r.Description!))).toEqual([]);
    const labels = new Set(k.records.map((r) => r.Label));
    expect([...labels].sort()).toEqual(['', 'cost', 'fee refund', 'funding fee', 'futures fee', 'margin fee', 'realized gain']);
    expect(k.records.find((r) => r.Description!.includes('futures_bills:b3'))?.Label).toBe('futures fee');
    expect(k.records.find((r) => r.Description!.includes('futures_bills:b2'))?.Label).toBe('funding fee');
    const f1 = k.records.find((r) => r.Description!.includes('spot_fills:f1'));
    expect(f1).toMatchObject({ 'Sent Amount': '12345678901234.123456789012', 'Sent Currency': 'USDT', 'Received Amount': '0.000000089',
      'Received Currency': 'BTC', 'Fee Amount': '0.5', 'Fee Currency': 'BGB' });
    expect(k.records.find((r) => r.Description!.includes('deposits:d1'))?.TxHash).toBe('0xhash1');
    noExponent(k.text);
  });

  it('cointracking: its 11 columns, types, and the ledger\'s totals', async () => {
    const { outDir } = await run('cointracking');
    const c = await csv(outDir, 'cointracking.csv');
    expect(c.header).toEqual(['Type', 'Buy Amount', 'Buy Currency', 'Sell Amount', 'Sell Currency', 'Fee', 'Fee Currency',
      'Exchange', 'Trade-Group', 'Comment', 'Date']);
    for (const r of c.records) expect(r.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // CoinTracking's Fee column is informational ("Relevant for calculations are the entered
    // values", solutions article 29000007202): the amounts alone carry the ledger's totals.
    expect(netPerCoin(c.records, { in: ['Buy Amount', 'Buy Currency'], out: ['Sell Amount', 'Sell Currency'] }))
      .toEqual(ledgerTotals);
    // f1's fee is in a third coin (BGB): its own Other Fee row, the trade's Fee cell empty.
    expect(c.records.filter((r) => r.Comment!.includes('spot_fills:f1')).map((r) => [r.Type, r['Sell Amount'], r['Sell Currency'], r.Fee])).toEqual([
      ['Trade', '12345678901234.123456789012', 'USDT', ''], ['Other Fee', '0.5', 'BGB', '']]);
    expect(new Set(c.records.map((r) => r.Type))).toEqual(new Set(['Trade', 'Deposit', 'Withdrawal', 'Receive Loan', 'Repay Loan', 'Borrowing Fee', 'Other Fee',
      'Income (non taxable)', 'Lost', 'Margin Profit', 'Derivatives / Futures Profit', 'Derivatives / Futures Loss']));
    // Own-account movements stay, per wallet, as non-taxable Deposit / Withdrawal.
    expect(c.records.filter((r) => r.Comment!.includes('own-account')).map((r) => `${r.Type} ${r.Exchange}`).sort()).toEqual([
      'Deposit A crossed_margin', 'Deposit A usdt_futures', 'Deposit B spot', 'Withdrawal A crossed_margin', 'Withdrawal A spot', 'Withdrawal A spot']);
    noExponent(c.text);
  });

  it('cointracker: the 8 columns, US dates, tags, and the ledger\'s totals', async () => {
    const { outDir } = await run('cointracker');
    const c = await csv(outDir, 'cointracker.csv');
    expect(c.header).toEqual(['Date', 'Received Quantity', 'Received Currency', 'Sent Quantity', 'Sent Currency', 'Fee Amount',
      'Fee Currency', 'Tag']);
    for (const r of c.records) expect(r.Date).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    // Left out: own-account movements (+5 USDT net), borrow/repay (100 + 7 - 50 USDT) and the
    // one-sided margin trade legs m7-m10 (+4 BTC, -5 USDT, +0.01 BTC, -0.005 BTC).
    const lessMargin: Record<string, string> = lessUsdt(ledgerTotals, '57');
    lessMargin.BTC = new Decimal(lessMargin.BTC!).minus('4.005').toFixed();
    expect(netPerCoin(c.records, { in: ['Received Quantity', 'Received Currency'], out: ['Sent Quantity', 'Sent Currency'], fee: ['Fee Amount', 'Fee Currency'] }))
      .toEqual(lessMargin);
    expect(new Set(c.records.map((r) => r.Tag))).toEqual(new Set(['', 'lost', 'margin fee', 'margin gain', 'margin loss']));
    noExponent(c.text);
  });
  it('ctc: the advanced CSV columns, buy/sell with base and quote, documented types, and the ledger\'s totals', async () => {
    const { outDir, manifest } = await run('ctc');
    const c = await csv(outDir, 'ctc.csv');
    expect(c.header).toEqual(['Timestamp (UTC)', 'Type', 'Base Currency', 'Base Amount', 'Quote Currency', 'Quote Amount', 'Fee Currency',
      'Fee Amount', 'From', 'To', 'Blockchain', 'ID', 'Description', 'Reference Price Per Unit', 'Reference Price Currency']);
    for (const r of c.records) expect(r['Timestamp (UTC)']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // f1 bought BTC with USDT; f2 sold ETH for USDT.
    expect(c.records.find((r) => r.ID === 'spot_fills:f1')).toMatchObject({ Type: 'buy', 'Base Currency': 'BTC', 'Base Amount': '0.000000089',
      'Quote Currency': 'USDT', 'Quote Amount': '12345678901234.123456789012', 'Fee Currency': 'BGB', 'Fee Amount': '0.5' });
    expect(c.records.find((r) => r.ID === 'spot_fills:f2')).toMatchObject({ Type: 'sell', 'Base Currency': 'ETH', 'Base Amount': '2',
      'Quote Currency': 'USDT', 'Quote Amount': '7000' });
    expect(c.records.find((r) => r.ID === 'deposits:d1')).toMatchObject({ Type: 'receive', From: '0xfrom' });
    expect(new Set(c.records.map((r) => r.Type))).toEqual(new Set(['buy', 'sell', 'receive', 'send', 'fee', 'income', 'margin-fee',
      'realized-profit', 'realized-loss', 'borrow', 'loan-repayment', 'lost']));
    expect(new Set(c.records.map((r) => r.ID)).size).toBe(c.records.length);
    expect(c.records.filter((r) => /^transfers:|margin_records:m1[12]@|futures_bills:b0@/.test(r.ID!))).toEqual([]);
    const net = new Map<string, Decimal>();
    for (const r of c.records) {
      const sign = ['buy', 'receive', 'income', 'realized-profit', 'borrow'].includes(r.Type!) ? 1 : -1;
      net.set(r['Base Currency']!, (net.get(r['Base Currency']!) ?? new Decimal(0)).plus(new Decimal(r['Base Amount']!).times(sign)));
      if (r['Quote Amount']) net.set(r['Quote Currency']!, (net.get(r['Quote Currency']!) ?? new Decimal(0)).minus(new Decimal(r['Quote Amount']!).times(sign)));
      if (r['Fee Amount']) net.set(r['Fee Currency']!, (net.get(r['Fee Currency']!) ?? new Decimal(0)).minus(r['Fee Amount']!));
    }
    expect(Object.fromEntries([...net].map(([k, d]) => [k, d.toFixed()]))).toEqual(lessUsdt(ledgerTotals, '5'));
    expect(manifest.coverage).toMatchObject({ ownAccountNet: { USDT: '5' }, accounts: [
      { account: 'A', wallets: ['crossed_margin', 'isolated_margin', 'spot', 'usdt_futures'] }, { account: 'B', wallets: ['spot'] }] });
    noExponent(c.text);
  });

  it('with --account only that account is exported: its transfer to the sub-account is a plain withdrawal', async () => {
    const { outDir, manifest } = await run('koinly', 'A');
    const k = await csv(outDir, 'koinly.csv');
    expect(k.records.find((r) => r.Description!.includes('transfers:x1'))).toMatchObject({ 'Sent Amount': '250', 'Sent Currency': 'USDT', Label: '' });
    // The spot -> futures transfer stays inside account A and is still left out.
    expect(k.records.filter((r) => /transfers:x3|futures_bills:b0/.test(r.Description!))).toEqual([]);
    expect(manifest.coverage.ownAccountMovements).toMatch(/^left out/);
  });
});
