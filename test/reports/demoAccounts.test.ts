import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { runGains } from '../../src/gains/runGains.js';
import type { RuleSetName } from '../../src/gains/ruleSets.js';

// Issue 20 item 1: the sandbox's demo-trading account (a key with paptrading: 1, virtual coins
// SUSDT, SUSDC, SBTC, SETH, SEOS) stays in the ledger and the native CSVs, marked, and is out of
// every tax output unless asked for (--include-demo), where it is valued 0, never as the real coin.

const env = sandboxWithDatabase();
const demoCoins = new Set(['SUSDT', 'SUSDC', 'SBTC', 'SETH', 'SEOS']);
let outRoot: string;
let year: string;
let from: string;
let to: string;
let demoUid: string;

beforeAll(async () => {
  const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
  expect(result.errors).toEqual([]);
  year = String(new Date(env.sandbox.world.now()).getUTCFullYear() - 1);
  from = `${year}-01-01T00:00:00Z`;
  to = `${Number(year) + 1}-01-01T00:00:00Z`;
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-demo-accounts-'));
  const demo = await sql<{ uid: string }>`SELECT uid FROM accounts WHERE kind = 'demo'`.execute(env.fresh.db);
  expect(demo.rows).toHaveLength(1);
  demoUid = demo.rows[0]!.uid;
  // The premise: the demo account traded in the year (so leaving it out is visible).
  const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger WHERE account_uid = ${demoUid} AND ts >= ${from}::timestamptz AND ts < ${to}::timestamptz`.execute(env.fresh.db);
  expect(n.rows[0]!.n).toBeGreaterThan(20);
}, 300_000);
afterAll(async () => {
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

const readCsv = async (file: string): Promise<Record<string, string>[]> => parse(await readFile(file, 'utf8'), { columns: true, skip_empty_lines: true });

// A row is demo when one of its cells is a demo coin or names the demo account (the tools'
// Description / Exchange / pool columns carry the account UID).
const isDemoRow = (row: Record<string, string>): boolean =>
  Object.values(row).some((v) => demoCoins.has(v) || v.includes(demoUid) || [...demoCoins].some((c) => v.endsWith(` ${c}`)));

describe('demo-trading accounts in the report files', () => {
  for (const format of ['koinly', 'cointracking', 'cointracker', 'ctc'] as const) {
    it(`${format}.csv leaves the demo account out by default, names it in the manifest, and includes it valued 0 with --include-demo`, async () => {
      const period = reportPeriod({ year, tz: 'UTC' });
      const out = await runReports({ databaseUrl: env.fresh.url, period, format, outDir: path.join(outRoot, format) });
      const rows = await readCsv(path.join(out.outDir, `${format}.csv`));
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.filter(isDemoRow)).toEqual([]);
      expect(out.manifest.parameters.includeDemo).toBe(false);
      expect(out.manifest.demo.included).toBe(false);
      expect(out.manifest.demo.treatment).toMatch(/^left out: .*virtual/);
      expect(out.manifest.demo.accounts).toEqual([{ account: demoUid, name: 'demo', reason: expect.stringContaining('demo-trading (paper) account') }]);
      expect(out.manifest.coverage.accounts.map((a) => a.account)).not.toContain(demoUid);

      const withDemo = await runReports({ databaseUrl: env.fresh.url, period, format, outDir: path.join(outRoot, `${format}-demo`), includeDemo: true });
      const all = await readCsv(path.join(withDemo.outDir, `${format}.csv`));
      const demoRows = all.filter(isDemoRow);
      expect(demoRows.length).toBeGreaterThan(20);
      expect(all.length).toBe(rows.length + demoRows.length);
      expect(withDemo.manifest.demo.included).toBe(true);
      expect(withDemo.manifest.demo.treatment).toMatch(/^included on request/);
      expect(withDemo.manifest.coverage.accounts.map((a) => a.account)).toContain(demoUid);
      if (format === 'koinly') {
        // Valued 0 and marked, never priced as BTC/ETH/USDT.
        for (const r of demoRows) {
          expect(r.Description).toMatch(/^DEMO /);
          expect(r['Net Worth Amount']).toBe('0');
        }
      }
      if (format === 'ctc') {
        for (const r of demoRows) {
          expect(r.Description).toMatch(/^DEMO /);
          expect(['', '0']).toContain(r['Reference Price Per Unit']);
        }
      }
      if (format === 'cointracking') for (const r of demoRows) expect(r.Comment).toMatch(/^DEMO /);
    });
  }

  it('native ledger.csv and valued-ledger.csv keep the demo rows, marked demo = true (valued 0 there), and only those', async () => {
    const period = reportPeriod({ year, tz: 'UTC' });
    const out = await runReports({ databaseUrl: env.fresh.url, period, format: 'native', outDir: path.join(outRoot, 'native') });
    const ledger = await readCsv(path.join(out.outDir, 'ledger.csv'));
    const demo = ledger.filter((r) => r.account_uid === demoUid);
    expect(demo.length).toBeGreaterThan(20);
    expect(new Set(demo.map((r) => r.demo))).toEqual(new Set(['true']));
    expect(new Set(ledger.filter((r) => r.account_uid !== demoUid).map((r) => r.demo))).toEqual(new Set(['false']));
    expect(new Set(demo.map((r) => r.coin)).size).toBeGreaterThan(0);
    for (const coin of new Set(demo.map((r) => r.coin))) expect(demoCoins.has(String(coin))).toBe(true);
    const valued = await readCsv(path.join(out.outDir, 'valued-ledger.csv'));
    const valuedDemo = valued.filter((r) => r.demo === 'true');
    expect(valuedDemo).toHaveLength(demo.length);
    for (const r of valuedDemo) expect([r.account_uid, r.value, r.unit_price, r.price_source]).toEqual([demoUid, '0', '0', 'demo']);
    expect(out.manifest.demo.treatment).toMatch(/^kept and marked/);
    for (const file of ['trades.csv', 'fees.csv', 'futures-pnl.csv']) {
      const rows = await readCsv(path.join(out.outDir, file));
      expect(Object.keys(rows[0]!)).toContain('demo');
      expect(rows.filter((r) => r.demo === 'true').every((r) => r.account_uid === demoUid)).toBe(true);
    }
    expect((await readCsv(path.join(out.outDir, 'futures-pnl.csv'))).some((r) => r.demo === 'true')).toBe(true);
  });
});

describe('demo-trading accounts in the SQL a tax output reads', () => {
  it('ledger_valued and tax_transactions leave demo rows out unless asked; asked, every demo row is valued 0 (price_source demo)', async () => {
    const db = env.fresh.db;
    const dflt = await sql<{ n: number; pnl: number }>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE kind = 'realized_pnl')::int AS pnl
      FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz) WHERE account_uid = ${demoUid} OR coin IN ('SUSDT', 'SUSDC', 'SBTC', 'SETH', 'SEOS')`.execute(db);
    expect(dflt.rows[0]).toEqual({ n: 0, pnl: 0 });
    const tx = await sql<{ n: number }>`SELECT count(*)::int AS n FROM tax_transactions(${from}::timestamptz, ${to}::timestamptz, '') WHERE account_uid = ${demoUid}`.execute(db);
    expect(tx.rows[0]!.n).toBe(0);

    const asked = await sql<{ price_source: string; value: string; unit_price: string; demo: boolean; n: number }>`
      SELECT price_source, value::text AS value, unit_price::text AS unit_price, demo, count(*)::int AS n
      FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz, true) WHERE account_uid = ${demoUid} GROUP BY 1, 2, 3, 4`.execute(db);
    expect(asked.rows).toEqual([{ price_source: 'demo', value: '0', unit_price: '0', demo: true, n: expect.any(Number) }]);
    expect(asked.rows[0]!.n).toBeGreaterThan(20);
    const txAsked = await sql<{ n: number; demo: boolean }>`
      SELECT count(*)::int AS n, bool_and(demo) AS demo FROM tax_transactions(${from}::timestamptz, ${to}::timestamptz, '', true) WHERE account_uid = ${demoUid}`.execute(db);
    expect(txAsked.rows[0]!.n).toBeGreaterThan(20);
    expect(txAsked.rows[0]!.demo).toBe(true);
    // Every other row is valued exactly as without the option.
    const diff = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        (SELECT account_uid, source, source_id, leg, value, price_source FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz, true) WHERE NOT demo
         EXCEPT ALL SELECT account_uid, source, source_id, leg, value, price_source FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz))
        UNION ALL
        (SELECT account_uid, source, source_id, leg, value, price_source FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz)
         EXCEPT ALL SELECT account_uid, source, source_id, leg, value, price_source FROM ledger_valued('USD', ${from}::timestamptz, ${to}::timestamptz, true) WHERE NOT demo)
      ) d`.execute(db);
    expect(diff.rows[0]!.n).toBe(0);
  });
});

describe('demo-trading accounts in gains', () => {
  for (const rules of ['fifo', 'uk', 'us'] as const satisfies readonly RuleSetName[]) {
    it(`${rules}: gains, income${rules === 'us' ? ', Form 8949' : ''} and the summary leave the demo account out and name it; --include-demo adds its rows at 0`, async () => {
      const base = { databaseUrl: env.fresh.url, rules, year: Number(year), fiat: 'USD', tz: 'UTC' };
      const out = await runGains({ ...base, outDir: path.join(outRoot, `gains-${rules}`) });
      const files = ['gains.csv', 'income.csv', ...(rules === 'us' ? ['form-8949.csv'] : [])];
      for (const file of files) {
        const rows = await readCsv(path.join(out.outDir, file));
        expect(rows.filter(isDemoRow), `${rules} ${file}`).toEqual([]);
      }
      expect(out.summary.demo).toEqual({ included: false, treatment: expect.stringMatching(/^left out/), accounts: [{ account: demoUid, name: 'demo', reason: expect.any(String) }] });
      const text = await readFile(path.join(out.outDir, 'summary.txt'), 'utf8');
      expect(text).toContain('Left out: demo-trading (paper) accounts');
      expect(text).toContain(`demo (${demoUid})`);
      const summaryJson = JSON.parse(await readFile(path.join(out.outDir, 'summary.json'), 'utf8'));
      expect(summaryJson.demo.accounts[0].account).toBe(demoUid);
      const manifest = JSON.parse(await readFile(path.join(out.outDir, 'manifest.json'), 'utf8'));
      expect(manifest.parameters.includeDemo).toBe(false);
      expect(manifest.demo.accounts[0].account).toBe(demoUid);

      const withDemo = await runGains({ ...base, outDir: path.join(outRoot, `gains-${rules}-demo`), includeDemo: true });
      expect(withDemo.summary.demo.included).toBe(true);
      // A run with demo rows is its own run: the run without them is still there.
      const runs = await sql<{ include_demo: boolean }>`SELECT include_demo FROM gains_runs WHERE rules = ${rules} AND tax_year = ${Number(year)} ORDER BY include_demo`.execute(env.fresh.db);
      expect(runs.rows.map((r) => r.include_demo)).toEqual([false, true]);
      const income = await readCsv(path.join(withDemo.outDir, 'income.csv'));
      const demoIncome = income.filter(isDemoRow);
      expect(demoIncome.length).toBeGreaterThan(0);
      for (const r of demoIncome) expect(r.value).toBe('0');
      // Valued 0: the totals are the run's without demo.
      expect(withDemo.summary.total.gains).toBe(out.summary.total.gains);
      expect(withDemo.summary.total.losses).toBe(out.summary.total.losses);
      expect(withDemo.summary.total.proceeds).toBe(out.summary.total.proceeds);
      const gains = await readCsv(path.join(withDemo.outDir, 'gains.csv'));
      for (const r of gains.filter(isDemoRow)) expect([r.proceeds, r.cost]).toEqual(['0.00', '0.00']); // gains.csv money at 2 decimals (issue 22)
      if (rules === 'us') {
        const form = await readCsv(path.join(withDemo.outDir, 'form-8949.csv'));
        expect(form.filter(isDemoRow).length).toBeGreaterThan(0);
      }
    });
  }
});
