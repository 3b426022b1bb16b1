import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { memoryFile } from '../support/memoryFile.js';
import { runCli } from '../support/runCli.js';
import { tempFolder } from '../support/tempFolder.js';
import { runGains } from '../../src/gains/runGains.js';
import { importFx } from '../../src/imports/importFx.js';
import { insertImported } from './importedLedger.js';
import { sql } from 'kysely';
import { ruleSet } from '../../src/gains/ruleSets.js';
import { addDays, utcDate, utcYear } from '../../src/normalize/calendarDate.js';

// A run that counts a value it does not have as 0 says so: summary.json's `incomplete`, the top of
// summary.txt and every form's heading in it, and a warning from `tradeledger gains`
// (src/gains/incompleteFigures.ts). Found trying the demo as a new user: `gains --rules uk --fiat
// GBP` before any ECB rates were imported wrote SA108 boxes of GBP 0 over 628 disposals, every
// value unpriced, with nothing but "17607 data-quality note(s)" to say so.

let priced: FreshDatabase;
let unknown: FreshDatabase;
beforeAll(async () => {
  // Valued through USDT (a stablecoin, USD 1): in USD at once; in GBP only with the GBP and USD
  // rates. The USDT comes in as a deposit (acquired at its market value).
  priced = await freshDatabase();
  await insertImported(priced.db, 'ledger-x', [
    { ts: '2024-04-20T10:00:00Z', received: ['1000', 'USDT'] },
    { ts: '2024-05-01T10:00:00Z', sent: ['1000', 'USDT'], received: ['1', 'TOKA'] },
    { ts: '2024-06-01T10:00:00Z', sent: ['1', 'TOKA'], received: ['1500', 'USDT'] },
  ]);
  // Two tokens nothing prices, and a sale of more than was bought.
  unknown = await freshDatabase();
  await insertImported(unknown.db, 'ledger-y', [
    { ts: '2024-05-01T10:00:00Z', sent: ['100', 'GBP'], received: ['2', 'TOKB'], netWorth: ['100', 'GBP'] },
    { ts: '2024-06-01T10:00:00Z', sent: ['1', 'TOKB'], received: ['7', 'TOKC'] },
    { ts: '2024-07-01T10:00:00Z', sent: ['3', 'TOKB'], received: ['300', 'GBP'], netWorth: ['300', 'GBP'] },
  ]);
});
afterAll(async () => { await priced?.drop(); await unknown?.drop(); });

const gains = (url: string, fiat: string) => runGains({ databaseUrl: url, rules: 'uk', year: 2024, fiat, tz: 'UTC', outDir: tempFolder('incomplete-') });
const text = async (dir: string) => readFile(path.join(dir, 'summary.txt'), 'utf8');

describe('figures counted as 0 for want of a price or a cost are not presented as ready to file', () => {
  it('GBP before any ECB rates: every value unpriced, the fix is `import fx`; with the rates the same run is complete', async () => {
    // In USD every row has a value, but a UK return is in pounds (HMRC CRYPTO23000).
    const usd = await gains(priced.url, 'USD');
    expect(usd.summary.sa108!.gainsBeforeLosses).toBe('500');
    expect(usd.summary.incomplete.map((f) => [f.problem, f.rows])).toEqual([['currency', 2]]);
    expect(usd.summary.incomplete[0]!.text).toContain('the uk rules\' return is in GBP (HMRC CRYPTO23000: "the value of any gain or loss must be converted into pound sterling');
    expect(usd.summary.incomplete[0]!.fix).toBe('import the ECB rates (`tradeledger import fx eurofxref-hist.zip`: no GBP or USD rates are imported yet), then run gains again with --fiat GBP');
    expect(await text(usd.outDir)).toContain('NOT READY TO FILE');
    // The general methods belong to no country's return: any fiat will do.
    const fifo = await runGains({ databaseUrl: priced.url, rules: 'fifo', year: 2024, fiat: 'USD', tz: 'UTC', outDir: tempFolder('incomplete-') });
    expect(fifo.summary.incomplete).toEqual([]);
    expect(await text(fifo.outDir)).not.toContain('NOT READY');

    const before = await gains(priced.url, 'GBP');
    expect(before.summary.sa108!.gainsBeforeLosses).toBe('0');
    expect(before.summary.dataQuality.unpriced).toBe(5);
    expect(before.summary.incomplete).toEqual([expect.objectContaining({ problem: 'unpriced', rows: 5 })]);
    expect(before.summary.incomplete[0]!.text).toContain('no GBP value and count as 0');
    expect(before.summary.incomplete[0]!.fix).toContain('no GBP or USD rates are imported: run `tradeledger import fx eurofxref-hist.zip`');
    const summaryText = await text(before.outDir);
    expect(summaryText.split('\n')[2]).toBe("NOT READY TO FILE: the figures below are not yet the return's, for these reasons:");
    expect(summaryText).toContain('UK SA108 capital gains summary, cryptoassets (whole pounds; exact figures in summary.json) - NOT READY TO FILE (see the top):');
    const json = JSON.parse(await readFile(path.join(before.outDir, 'summary.json'), 'utf8'));
    expect(json.incomplete).toEqual(before.summary.incomplete);

    // 0.8 GBP per USD on both days: gains 500 USD = 400 GBP.
    await importFx(priced.db, memoryFile('eurofxref-hist.csv', 'Date,USD,GBP,\n2024-04-02,1.25,1.0,\n'), new Date('2024-12-31T00:00:00Z'));
    const after = await gains(priced.url, 'GBP');
    expect(after.summary.incomplete).toEqual([]);
    // With the rates in, the USD run's fix is just the flag.
    expect((await gains(priced.url, 'USD')).summary.incomplete[0]!.fix).toBe('run gains again with --fiat GBP');
    expect(after.summary.sa108!.gainsBeforeLosses).toBe('400');
    expect(await text(after.outDir)).not.toContain('NOT READY');
  });

  it('rows nothing prices (rates there), and disposals with no lots: each named with its own fix', async () => {
    await importFx(unknown.db, memoryFile('eurofxref-hist.csv', 'Date,USD,GBP,\n2024-04-02,1.25,1.0,\n'), new Date('2024-12-31T00:00:00Z'));
    const { summary, outDir } = await gains(unknown.url, 'GBP');
    const dq = parse(await readFile(path.join(outDir, 'gains-data-quality.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    const unpricedRows = dq.filter((d) => d.problem === 'unpriced').length;
    const noCostRows = dq.filter((d) => d.problem === 'no_cost_basis').length;
    expect(unpricedRows).toBe(2);
    expect(noCostRows).toBe(1);
    expect(summary.incomplete.map((f) => [f.problem, f.rows])).toEqual([['unpriced', unpricedRows], ['no_cost_basis', noCostRows]]);
    expect(summary.incomplete[0]!.fix).not.toContain('rates are imported');
    expect(summary.incomplete[0]!.fix).toContain('tradeledger classify set');
    expect(summary.incomplete[1]!.text).toContain('had no lots to match');
    expect(summary.incomplete[1]!.fix).toContain('opening-balances.csv');
    const summaryText = await text(outDir);
    expect(summaryText).toContain('  - 2 ledger row(s) read for this run have no GBP value');
    expect(summaryText).toContain('  - 1 part(s) of the tax year\'s disposals had no lots to match');
  });

  it('a tax year not over yet, and one whose end some stream was not synced to', async () => {
    // The UK year holding today, read with its 30-day look-ahead: not over.
    const today = utcDate(Date.now());
    const year = today >= ruleSet('uk').taxYear(utcYear(Date.now())).from ? utcYear(Date.now()) : utcYear(Date.now()) - 1;
    const { from, to } = ruleSet('uk').taxYear(year);
    const open = await runGains({ databaseUrl: unknown.url, rules: 'uk', year, fiat: 'GBP', tz: 'UTC', outDir: tempFolder('incomplete-') });
    expect(open.summary.period.from).toBe(from);
    // (This ledger also has rows nothing prices: a reason of its own, after this one.)
    expect(open.summary.incomplete.map((f) => f.problem)).toEqual(['period_open', 'unpriced']);
    expect(open.summary.incomplete[0]!.text).toBe(`the tax year has not ended: it runs to ${addDays(to, -1)}, and acquisitions up to ${addDays(to, 30)} can still match its disposals (UTC); these figures hold only what the database has now`);
    expect(open.summary.incomplete[0]!.fix).toBe(`run \`tradeledger sync\` and gains again from ${addDays(to, 31)}`);

    // A US (calendar) year that is over, with one stream synced to before its end and one after.
    await sql`INSERT INTO sync_state (account_uid, stream, partition, watermark, status) VALUES
      ('1000000001', 'spotFills', 'all', '2026-01-05T00:00:00Z', 'idle'), ('1000000001', 'deposits', 'all', '2025-03-01T00:00:00Z', 'idle')`.execute(unknown.db);
    try {
      const lagging = await runGains({ databaseUrl: unknown.url, rules: 'us', year: 2025, fiat: 'USD', tz: 'America/New_York', outDir: tempFolder('incomplete-') });
      expect(lagging.summary.incomplete.map((f) => f.problem)).toEqual(['not_synced', 'unpriced']);
      expect(lagging.summary.incomplete[0]!.text).toBe('the history of 1000000001 deposits is synced only up to 2025-03-01T00:00:00.000Z, before the end of what this run reads (2026-01-01 America/New_York)');
      // Synced past the year's end: nothing to say (2024 ends before both watermarks).
      const synced = await runGains({ databaseUrl: unknown.url, rules: 'us', year: 2024, fiat: 'USD', tz: 'America/New_York', outDir: tempFolder('incomplete-') });
      expect(synced.summary.incomplete.map((f) => f.problem)).not.toContain('not_synced');
    } finally {
      await sql`DELETE FROM sync_state`.execute(unknown.db);
    }
  });

  it('`tradeledger gains` ends with a warning per reason (exit 0: the files are written, and say what they lack); `report` warns of a fiat without rates', async () => {
    const dir = tempFolder('incomplete-cli-');
    const fresh = await freshDatabase();
    try {
      await writeFile(path.join(dir, 'w.csv'), [
        'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
        '2024-04-20 10:00 UTC,,,1000,USDT,,,,,,,',
        '2024-05-01 10:00 UTC,1000,USDT,1,TOKA,,,,,,,',
        '2024-06-01 10:00 UTC,1,TOKA,1500,USDT,,,,,,,',
      ].join('\n'));
      expect((await runCli(['import', 'transactions', path.join(dir, 'w.csv'), '--wallet', 'w'], { DATABASE_URL: fresh.url })).code).toBe(0);
      const r = await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'UTC', '--out', path.join(dir, 'uk')], { DATABASE_URL: fresh.url });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: NOT READY TO FILE: 5 ledger row(s) read for this run have no GBP value and count as 0 in proceeds, costs and income\n  fix: no GBP or USD rates are imported');
      const usd = await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'USD', '--tz', 'UTC', '--out', path.join(dir, 'uk-usd')], { DATABASE_URL: fresh.url });
      expect(usd.code).toBe(0);
      expect(usd.stderr).toContain('warning: NOT READY TO FILE: the uk rules\' return is in GBP');
      expect(usd.stderr).not.toContain('have no USD value');
      // `report` in a fiat without rates says so too (its valued-ledger.csv would be empty of values).
      const report = await runCli(['report', '--year', '2024', '--fiat', 'gbp', '--out', path.join(dir, 'report-gbp')], { DATABASE_URL: fresh.url });
      expect(report.code).toBe(0);
      expect(report.stderr).toContain('warning: no GBP or USD rates are imported, so every row that needs them has no GBP value');
      const reportUsd = await runCli(['report', '--year', '2024', '--out', path.join(dir, 'report-usd')], { DATABASE_URL: fresh.url });
      expect(reportUsd.code).toBe(0);
      expect(reportUsd.stderr).not.toContain('rates are imported');
    } finally {
      await fresh.drop();
    }
  });
});
