import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/tempFolder.js';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runGains } from '../../src/gains/runGains.js';
import type { GainsProgress } from '../../src/gains/runGains.js';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import { insertImported } from './importedLedger.js';

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
  // CRYPTO22255 (Melanie) as imported transactions, with one twist for the zone: the 500 token E
  // are bought at 23:30 UTC on 29 September, which is 30 September in London (BST): 31 days after
  // the 30 August sale there, but only 30 days in UTC.
  await insertImported(fresh.db, 'ledger-x', [
    { ts: '2024-01-01T12:00:00Z', sent: ['200000', 'GBP'], received: ['14000', 'TOKE'], netWorth: ['200000', 'GBP'] },
    { ts: '2024-08-30T12:00:00Z', sent: ['4000', 'TOKE'], received: ['160000', 'GBP'], netWorth: ['160000', 'GBP'] },
    { ts: '2024-09-29T23:30:00Z', sent: ['17500', 'GBP'], received: ['500', 'TOKE'], netWorth: ['17500', 'GBP'] },
  ]);
});
afterAll(async () => { await fresh?.drop(); });
// Every folder a run writes is removed after the file (tempFolder).
const outDir = async (): Promise<string> => tempFolder('gains-');

const csv = async (dir: string, file: string) => parse(await readFile(path.join(dir, file), 'utf8'), { columns: true }) as Record<string, string>[];

describe('runGains over the valued ledger', () => {
  it('UK in UTC: the 29 September purchase is within 30 days (CRYPTO22255: £92,500 gain)', async () => {
    const out = await outDir();
    const { summary } = await runGains({ databaseUrl: fresh.url, rules: 'uk', year: 2024, fiat: 'GBP', tz: 'UTC', outDir: out });
    const rows = await csv(out, 'gains.csv');
    expect(rows.map((r) => [r.matching, r.quantity, r.cost, r.date_acquired])).toEqual([
      ['30-day', '500', '17500.00', '2024-09-29'],
      ['s104', '3500', '50000.00', ''],
    ]);
    expect(summary.sa108).toMatchObject({ numberOfDisposals: 1, disposalProceeds: '160000', allowableCosts: '67500', gainsBeforeLosses: '92500', losses: '0' });
    expect(rows[0]!.disposal_refs).toMatch(/^imported_transactions\|.+:3\|sent$/);
    expect(rows[0]!.acquisition_refs).toMatch(/^imported_transactions\|.+:4\|received$/);
  });

  it('tells how far it is: reading until the first rows come, then rows read and the year\'s matches, then writing', async () => {
    const out = await outDir();
    const seen: GainsProgress[] = [];
    await runGains({ databaseUrl: fresh.url, rules: 'uk', year: 2024, fiat: 'GBP', tz: 'UTC', outDir: out, onProgress: (p) => seen.push(p) });
    const ledgerRows = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger`.execute(fresh.db)).rows[0]!.n;
    expect(seen[0]).toEqual({ stage: 'reading', rows: 0, day: null, matches: 0 });
    const matching = seen.filter((p) => p.stage === 'matching');
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.at(-1)).toMatchObject({ rows: ledgerRows, day: '2024-09-29' });
    // The last stage carries the totals: every ledger row read, one match per gains.csv row.
    expect(seen.at(-1)).toEqual({ stage: 'writing', rows: ledgerRows, day: '2024-09-29', matches: (await csv(out, 'gains.csv')).length });
    expect(seen.at(-1)!.matches).toBe(2);
  });

  it('UK in Europe/London: the same purchase is 30 September, 31 days on, so all 4,000 come from the pool', async () => {
    const out = await outDir();
    const { summary, runId } = await runGains({ databaseUrl: fresh.url, rules: 'uk', year: 2024, fiat: 'GBP', tz: 'Europe/London', outDir: out });
    const rows = await csv(out, 'gains.csv');
    expect(rows.map((r) => [r.matching, r.quantity, r.date_disposed])).toEqual([['s104', '4000', '2024-08-30']]);
    // gains.csv: to 2 decimals; the exact share (rounded once, at 12 places) is in the summary.
    expect(rows[0]!.cost).toBe('57142.86');
    expect(summary.total.cost).toBe('57142.857142857143');
    // What was paid (200,000 + 17,500) = cost matched + cost still in the pool.
    const held = summary.holdings.find((h) => h.asset === 'TOKE')!;
    expect(held.quantity).toBe('10500');
    expect(new GainsDecimal(held.cost).plus(summary.total.cost).toFixed()).toBe('217500');
    // Traceability: from the match to the ledger row and the imported record, in SQL.
    const trace = await sql<{ side: string; line: number; kind: string }>`
      SELECT r.side, i.line, l.kind FROM gains_match_rows r
      JOIN ledger l ON l.source = r.source AND l.source_id = r.source_id AND l.leg = r.leg
      JOIN imported_transactions i ON i.source_id = r.source_id
      WHERE r.run_id = ${runId}::bigint ORDER BY r.side`.execute(fresh.db);
    expect(trace.rows).toEqual([{ side: 'disposal', line: 3, kind: 'trade_sell' }]);
  });

  it('US 2024: a short-term Part I row; before 2025 the form has no digital-asset boxes, so no 1099 is box C', async () => {
    const out = await outDir();
    await runGains({ databaseUrl: fresh.url, rules: 'us', year: 2024, fiat: 'GBP', tz: 'UTC', outDir: out });
    const rows = await csv(out, 'form-8949.csv');
    expect(rows.map((r) => [r.part, r.box, r.description, r.date_acquired, r.date_sold, r.proceeds, r.cost, r.gain_or_loss])).toEqual([
      ['I', 'C', '4000 TOKE', '01/01/2024', '08/30/2024', '160000.00', '57142.86', '102857.14'],
    ]);
    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as { files: { file: string }[] };
    expect(manifest.files.map((f) => f.file)).toEqual(['gains.csv', 'income.csv', 'gains-data-quality.csv', 'form-8949.csv', 'summary.json', 'summary.txt']);
  });

  it('Australia: the income year from 1 July holds the August sale, without the 12-month discount; Canada: ACB', async () => {
    const au = await runGains({ databaseUrl: fresh.url, rules: 'au', year: 2024, fiat: 'GBP', tz: 'Australia/Sydney', outDir: await outDir() });
    expect(au.summary.period).toEqual({ from: '2024-07-01', to: '2025-07-01', tz: 'Australia/Sydney' });
    expect(au.summary.cgtDiscount).toMatchObject({ discountableGains: '0', otherGains: '102857.142857142857', losses: '0' });
    const ca = await runGains({ databaseUrl: fresh.url, rules: 'ca', year: 2024, fiat: 'GBP', tz: 'America/Toronto', outDir: await outDir() });
    expect(Object.keys(ca.summary.byClass)).toEqual(['acb']);
    expect(Number(ca.summary.total.cost)).toBeCloseTo(200000 * 4000 / 14000, 6);
  });

  it('--account limits the run to one account or imported wallet', async () => {
    const other = await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2024, fiat: 'GBP', tz: 'UTC', account: 'someone-else', outDir: await outDir() });
    expect(other.summary.total.disposals).toBe(0);
    const mine = await runGains({ databaseUrl: fresh.url, rules: 'fifo', year: 2024, fiat: 'GBP', tz: 'UTC', account: 'ledger-x', outDir: await outDir() });
    expect(mine.summary.total.disposals).toBe(1);
  });

  it('a rerun with the same parameters replaces the earlier run', async () => {
    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM gains_runs`.execute(fresh.db);
    await runGains({ databaseUrl: fresh.url, rules: 'us', year: 2024, fiat: 'GBP', tz: 'UTC', outDir: await outDir() });
    const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM gains_runs`.execute(fresh.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  // Two runs of one request at once (a portal download beside a CLI run): the second failed with
  // "unexpected error: duplicate key value violates unique constraint gains_runs_key".
  it('three runs with the same parameters at once all succeed; one run is stored, with its own rows only', async () => {
    const runs = await Promise.all([1, 2, 3].map(async () => runGains({ databaseUrl: fresh.url, rules: 'uk', year: 2024, fiat: 'GBP', tz: 'Europe/Berlin', outDir: await outDir() })));
    for (const r of runs) expect(r.summary.sa108).toMatchObject({ numberOfDisposals: 1, disposalProceeds: '160000' });
    const stored = await sql<{ run_id: string }>`SELECT run_id::text FROM gains_runs WHERE rules = 'uk' AND tax_year = 2024 AND tz = 'Europe/Berlin'`.execute(fresh.db);
    expect(stored.rows).toHaveLength(1);
    expect(runs.map((r) => String(r.runId))).toContain(stored.rows[0]!.run_id);
    const orphans = await sql<{ n: number }>`SELECT count(*)::int AS n FROM gains_matches m WHERE NOT EXISTS (SELECT 1 FROM gains_runs r WHERE r.run_id = m.run_id)`.execute(fresh.db);
    expect(orphans.rows[0]!.n).toBe(0);
  });
  it('US 2025: the Form 8949 box follows how the account\'s broker reported (G/J basis reported, H/K not, I/L no 1099-DA)', async () => {
    // IRS Form 8949 instructions (2025): boxes G/H/I (Part I) and J/K/L (Part II) for digital
    // assets, "Do not use boxes C or F for digital assets"; Form 1099-DA instructions, "Applicable
    // Checkbox on Form 8949": "Code G ... short-term transaction for which the cost or other basis is
    // being reported to the IRS. Code H ... is not being reported to the IRS."
    await insertImported(fresh.db, 'ledger-us', [
      { ts: '2025-02-01T12:00:00Z', sent: ['1000', 'GBP'], received: ['10', 'TOKU'], netWorth: ['1000', 'GBP'] },
      { ts: '2025-03-01T12:00:00Z', sent: ['10', 'TOKU'], received: ['1500', 'GBP'], netWorth: ['1500', 'GBP'] },
    ]);
    const box = async (brokerReporting?: Record<string, 'basis-reported' | 'basis-not-reported' | 'none'>) => {
      const out = await outDir();
      await runGains({ databaseUrl: fresh.url, rules: 'us', year: 2025, fiat: 'GBP', tz: 'UTC', account: 'ledger-us', outDir: out, brokerReporting });
      return (await csv(out, 'form-8949.csv')).map((r) => [r.part, r.box, r.pool]);
    };
    expect(await box()).toEqual([['I', 'I', 'ledger-us']]);
    expect(await box({ 'ledger-us': 'basis-reported' })).toEqual([['I', 'G', 'ledger-us']]);
    expect(await box({ 'ledger-us': 'basis-not-reported', other: 'basis-reported' })).toEqual([['I', 'H', 'ledger-us']]);
  });
});
