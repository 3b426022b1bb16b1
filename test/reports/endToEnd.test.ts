import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { Decimal as DecimalBase } from 'decimal.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import type { ReportFormat } from '../../src/reports/reportFormats.js';

const Decimal = DecimalBase.clone({ precision: 200 });
type Decimal = InstanceType<typeof Decimal>;

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let outRoot: string;
let period: ReturnType<typeof reportPeriod>;
/** Per-coin ledger sums over the period, straight from the database. */
let ledgerTotals: Record<string, string>;
// The tax-tool files leave demo-trading accounts out (sql/schema/views/demo_accounts.sql; their manifest says so): their
// totals are the ledger's without the demo rows.
let taxLedgerTotals: Record<string, string>;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-e2e-'));
  const result = await runSync(testSyncOptions(sandbox, fresh.db));
  expect(result.errors).toEqual([]);
  const now = sandbox.world.now();
  period = reportPeriod({ from: day(now - 800 * 86_400_000), to: day(now + 2 * 86_400_000), tz: 'UTC' });
  const { rows } = await sql<{ coin: string; total: string }>`
    SELECT coalesce(coin, '(none)') AS coin, sum(amount)::text AS total FROM ledger
    WHERE ts >= ${period.from}::timestamptz AND ts < ${period.to}::timestamptz GROUP BY 1`.execute(fresh.db);
  ledgerTotals = Object.fromEntries(rows.map((r) => [r.coin, new Decimal(r.total).toFixed()]));
  const real = await sql<{ coin: string; total: string }>`
    SELECT coalesce(coin, '(none)') AS coin, sum(amount)::text AS total FROM ledger
    WHERE ts >= ${period.from}::timestamptz AND ts < ${period.to}::timestamptz AND NOT demo GROUP BY 1`.execute(fresh.db);
  taxLedgerTotals = Object.fromEntries(real.rows.map((r) => [r.coin, new Decimal(r.total).toFixed()]));
}, 300_000);
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

async function run(format: ReportFormat) {
  const outDir = path.join(outRoot, format);
  const { manifest } = await runReports({ databaseUrl: fresh.url, format, outDir, period, force: true });
  const read = async (file: string) => {
    const bytes = await readFile(path.join(outDir, file));
    const entry = manifest.files.find((f) => f.file === file)!;
    expect(createHash('sha256').update(bytes).digest('hex'), file).toBe(entry.sha256);
    const records = parse(bytes, { columns: true }) as Record<string, string>[];
    expect(records.length, file).toBe(entry.rows);
    return records;
  };
  return { manifest, read };
}

function net(records: Record<string, string>[], pairs: [string, string, 1 | -1][]): Record<string, string> {
  const sums = new Map<string, Decimal>();
  for (const r of records) {
    for (const [amount, coin, sign] of pairs) {
      if (!r[amount]) continue;
      const key = r[coin] || '(none)';
      sums.set(key, (sums.get(key) ?? new Decimal(0)).plus(new Decimal(r[amount]!).times(sign)));
    }
  }
  return Object.fromEntries([...sums].map(([c, d]) => [c, d.toFixed()]));
}

describe('sandbox -> sync -> reports', () => {
  it('native: every file matches its manifest, and ledger.csv holds the database\'s ledger', async () => {
    const { manifest, read } = await run('native');
    const ledger = await read('ledger.csv');
    const { rows } = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM ledger WHERE ts >= ${period.from}::timestamptz AND ts < ${period.to}::timestamptz`.execute(fresh.db);
    expect(ledger.length).toBe(Number(rows[0]!.n));
    expect(ledger.length).toBeGreaterThan(100);
    expect(net(ledger, [['amount', 'coin', 1]])).toEqual(ledgerTotals);
    expect(new Set(ledger.map((r) => r.kind))).toEqual(new Set(['trade_buy', 'trade_sell', 'fee', 'deposit', 'withdrawal',
      'transfer_in', 'transfer_out', 'borrow', 'repay', 'interest', 'liquidation_fee', 'compensate', 'confiscated',
      'exchange_in', 'exchange_out', 'realized_pnl', 'funding_fee']));
    const unclassified = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ledger WHERE kind = 'other' OR coin IS NULL`.execute(fresh.db);
    expect(unclassified.rows[0]!.n, 'every sandbox record fits a ledger rule').toBe('0');
    for (const file of manifest.files) await read(file.file);
    expect(manifest.watermarks.length).toBeGreaterThan(10);
    const recon = await read('reconciliation.csv');
    expect(recon.length).toBeGreaterThan(0);
    expect(Object.values(manifest.reconciliation).reduce((a, b) => a + b, 0)).toBe(recon.length);
  });

  it('each tax-tool file carries the ledger\'s totals, less what its manifest says it left out', async () => {
    const { manifest: km, read: readKoinly } = await run('koinly');
    const koinly = await readKoinly('koinly.csv');
    const less = (totals: Record<string, string>, out: Record<string, string>) => Object.fromEntries(Object.entries(totals)
      .map(([c, v]) => [c, new Decimal(v).minus(out[c] ?? '0').toFixed()]).filter(([, v]) => v !== '0'));
    // The own-account movements Koinly's file leaves out cancel: the sandbox shows both legs.
    expect(Object.values(km.coverage.ownAccountNet).filter((v) => v !== '0')).toEqual([]);
    expect(km.demo.accounts.length).toBe(1);
    expect(km.demo.treatment).toMatch(/^left out/);
    expect(Object.keys(taxLedgerTotals).length).toBeLessThan(Object.keys(ledgerTotals).length);
    // koinly.csv leaves out margin borrow/repay (Koinly would read them as a purchase and a sale; its manifest says so)
    const { rows: koinlyLoans } = await sql<{ coin: string; total: string }>`
      SELECT coin, sum(amount)::text AS total FROM ledger WHERE kind IN ('borrow', 'repay') AND NOT demo
        AND ts >= ${period.from}::timestamptz AND ts < ${period.to}::timestamptz GROUP BY coin`.execute(fresh.db);
    expect(koinlyLoans.length, 'the sandbox has margin loans in the period').toBeGreaterThan(0);
    expect(km.coverage.leftOut).toMatch(/borrow and repay/);
    expect(net(koinly, [['Received Amount', 'Received Currency', 1], ['Sent Amount', 'Sent Currency', -1], ['Fee Amount', 'Fee Currency', -1]]))
      .toEqual(less(taxLedgerTotals, Object.fromEntries(koinlyLoans.map((l) => [l.coin, l.total]))));
    const ctc = await (await run('ctc')).read('ctc.csv');
    expect(ctc.length).toBeGreaterThan(100);
    const ct = await (await run('cointracking')).read('cointracking.csv');
    // CoinTracking's Fee column is informational (solutions article 29000007202): amounts only.
    expect(net(ct, [['Buy Amount', 'Buy Currency', 1], ['Sell Amount', 'Sell Currency', -1]]))
      .toEqual(taxLedgerTotals);
    const ctr = await (await run('cointracker')).read('cointracker.csv');
    const { rows: loans } = await sql<{ coin: string; total: string }>`
      -- cointracker.csv leaves out margin borrow/repay and one-sided margin trade legs (its manifest says so)
      SELECT coin, sum(amount)::text AS total FROM ledger WHERE (kind IN ('borrow', 'repay')
          OR (source = 'margin_records' AND kind IN ('trade_buy', 'trade_sell', 'exchange_in', 'exchange_out'))) AND NOT demo
        AND ts >= ${period.from}::timestamptz AND ts < ${period.to}::timestamptz GROUP BY coin`.execute(fresh.db);
    const outCt: Record<string, Decimal> = {};
    for (const l of loans) outCt[l.coin] = (outCt[l.coin] ?? new Decimal(0)).plus(l.total);
    expect(net(ctr, [['Received Quantity', 'Received Currency', 1], ['Sent Quantity', 'Sent Currency', -1], ['Fee Amount', 'Fee Currency', -1]]))
      .toEqual(less(taxLedgerTotals, Object.fromEntries(Object.entries(outCt).map(([c, d]) => [c, d.toFixed()]))));
  });
});
