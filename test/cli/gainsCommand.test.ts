import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runCli, startCli } from '../support/runCli.js';
import { tempFolder } from '../support/tempFolder.js';

// The path held-out checks take: `import transactions` then `gains`, no sync. Hand-computed (UK):
//   1 May   1000 GBP -> 0.1 BTC, fee 10 GBP          BTC pool 0.1, cost 1010 (fee into cost)
//   1 Jun   0.05 BTC -> 1 ETH (worth 600), fee 0.001 BTC (valued at the trade's own BTC price,
//           12000/BTC = 12): the day's BTC disposals are one, 0.051 for 612; cost
//           1010 x 0.051 / 0.1 = 515.1; ETH cost 600 + 12 = 612
//   1 Jul   1 ETH -> 700 GBP, fee 5 GBP              proceeds 695, cost 612
//   15 Jul  0.01 BTC in, label reward, worth 500     income 500, BTC cost 500
//   1 Aug   0.02 BTC out, no label                   a move to an own wallet, flagged
const koinly = [
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  '2024-05-01 10:00 UTC,1000,GBP,0.1,BTC,10,GBP,1000,GBP,,,',
  '2024-06-01 10:00 UTC,0.05,BTC,1,ETH,0.001,BTC,600,GBP,,,',
  '2024-07-01 10:00 UTC,1,ETH,700,GBP,5,GBP,700,GBP,,,',
  '2024-07-15 10:00 UTC,,,0.01,BTC,,,500,GBP,reward,,',
  '2024-08-01 10:00 UTC,0.02,BTC,,,,,,,,,0xabc',
].join('\n');

let fresh: FreshDatabase;
let dir: string;
beforeAll(async () => {
  fresh = await freshDatabase();
  dir = tempFolder('gains-cli-');
  await writeFile(path.join(dir, 'wallet.csv'), `${koinly}\n`);
});
afterAll(async () => { await fresh?.drop(); });

const csv = async (file: string) => parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[];

describe('tradeledger import transactions, then tradeledger gains', () => {
  it('writes the UK gains, income, data quality and SA108 figures', async () => {
    const imported = await runCli(['import', 'transactions', path.join(dir, 'wallet.csv'), '--wallet', 'ledger-x'], { DATABASE_URL: fresh.url });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const out = path.join(dir, 'uk');
    // Any case, as `report --tz` takes it (one zone check, src/normalize/timeZone.ts); the run uses the canonical name.
    const r = await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'europe/london', '--out', out], { DATABASE_URL: fresh.url });
    expect(r.stderr).toContain('data-quality');
    expect(r.stderr).not.toContain('the ledger holds no rows');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dates counted in Europe/London (--tz)');
    // A year before any row (a mistyped --year): all 0, and said why.
    const early = await runCli(['gains', '--year', '2001', '--rules', 'fifo', '--fiat', 'GBP', '--out', path.join(dir, 'fifo-2001')], { DATABASE_URL: fresh.url });
    expect(early.code).toBe(0);
    expect(early.stdout).toContain(': 0 disposals');
    expect(early.stderr).toContain('note: the ledger holds no rows up to 2002-01-01, so every figure is 0; check --year, and that `tradeledger sync` or an import has run');
    expect(JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')).parameters.tz).toBe('Europe/London');
    const gains = await csv(path.join(out, 'gains.csv'));
    expect(gains.map((g) => [g.asset, g.date_disposed, g.matching, g.quantity, g.proceeds, g.cost, g.gain, g.pool])).toEqual([
      ['BTC', '2024-06-01', 's104', '0.051', '612.00', '515.10', '96.90', '*'],
      ['ETH', '2024-07-01', 's104', '1', '695.00', '612.00', '83.00', '*'],
    ]);
    const income = await csv(path.join(out, 'income.csv'));
    expect(income.map((i) => [i.category, i.asset, i.quantity, i.value, i.fiat])).toEqual([['reward', 'BTC', '0.01', '500', 'GBP']]);
    const dq = await csv(path.join(out, 'gains-data-quality.csv'));
    expect(dq.map((d) => d.problem)).toEqual(['withdrawal_not_disposal']);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.sa108).toMatchObject({ numberOfDisposals: 2, // SA108 proceeds are gross: the sale's £5 fee is among the allowable costs (HMRC HS284 Example 3).
    disposalProceeds: '1312', allowableCosts: '1132.1', gainsBeforeLosses: '179.9', losses: '0' });
    expect(summary.holdings).toEqual([{ asset: 'BTC', quantity: '0.059', cost: '994.9' }]);
    expect(await readFile(path.join(out, 'summary.txt'), 'utf8')).toContain('box 13.1  Number of disposals                          2');
  });

  it('Germany: the Anlage SO totals and the Freigrenze (EUR 1,000 from 2024: 179.90 stays tax-free)', async () => {
    const out = path.join(dir, 'de');
    // No --tz: Germany's own zone, said on stdout.
    const r = await runCli(['gains', '--year', '2024', '--rules', 'de', '--fiat', 'GBP', '--out', out], { DATABASE_URL: fresh.url });
    expect(r.stdout).toContain('dates counted in Europe/Berlin (the default for --rules de; --tz to change)');
    // CSVs in rows, the summaries (one document each) in bytes: they said "1 rows"
    expect(r.stdout).toMatch(/^gains\.csv +\d+ rows$/m);
    expect(r.stdout).toMatch(/^summary\.json +\d+ bytes$/m);
    expect(r.stdout).toMatch(/^summary\.txt +\d+ bytes$/m);
    expect(r.code).toBe(0);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.anlageSO).toMatchObject({ taxableGains: '179.9', net: '179.9', freigrenze: '1000', belowFreigrenze: true, taxableAmount: '0' });
  });

  it('without --fiat, a country\'s rules value in its return\'s currency and say so; fifo asks for one', async () => {
    const out = path.join(dir, 'de-default-fiat');
    const r = await runCli(['gains', '--year', '2024', '--rules', 'de', '--out', out], { DATABASE_URL: fresh.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('values in EUR (the de return\'s currency, the default; --fiat to change)\n');
    expect(JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')).fiat).toBe('EUR');
    const fifo = await runCli(['gains', '--year', '2024', '--rules', 'fifo', '--out', path.join(dir, 'fifo-no-fiat')], { DATABASE_URL: fresh.url });
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain('--fiat is needed with --rules fifo');
    expect(fifo.stderr).not.toContain('    at ');
    await expect(readFile(path.join(dir, 'fifo-no-fiat', 'summary.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('bad flags: one line naming the fix, exit code 2', async () => {
    const r = await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'Mars/Olympus'], { DATABASE_URL: fresh.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tz "Mars/Olympus" is not a known time zone');
    expect(r.stderr).not.toContain('    at ');
    const rules = await runCli(['gains', '--year', '2024', '--rules', 'xx', '--fiat', 'GBP'], { DATABASE_URL: fresh.url });
    expect(rules.code).toBe(2);
    // A country with several zones: --tz is asked for, with examples.
    const us = await runCli(['gains', '--year', '2024', '--rules', 'us', '--fiat', 'USD'], { DATABASE_URL: fresh.url });
    expect(us.code).toBe(2);
    expect(us.stderr).toContain('--rules us needs --tz');
    expect(us.stderr).toContain('--tz America/New_York');
    expect(us.stderr).not.toContain('    at ');
    // A tax year that has not started (2030 typed for 2020): it ran, wrote every file and said
    // only that the year "has not ended". Refused now, naming the year running, no folder made.
    const future = new Date().getUTCFullYear() + 2;
    const ahead = await runCli(['gains', '--year', String(future), '--rules', 'uk', '--fiat', 'GBP', '--out', path.join(dir, 'future')], { DATABASE_URL: fresh.url });
    expect(ahead.code, ahead.stderr).toBe(2);
    expect(ahead.stderr).toMatch(new RegExp(`the uk tax year ${future} starts on ${future}-04-06, after today \\(\\d{4}-\\d{2}-\\d{2} in Europe/London\\): nothing can have happened in it yet`));
    expect(ahead.stderr).toMatch(/fix: The uk tax year running now is \d{4} \(from \d{4}-04-06\)/);
    await expect(readFile(path.join(dir, 'future', 'summary.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('a withdrawal from one imported wallet and its deposit into another are one own-account move', async () => {
    const header = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
    await writeFile(path.join(dir, 'a.csv'), [header, '2024-03-01 10:00 UTC,1000,GBP,10,SOL,,,1000,GBP,,,', '2024-05-01 10:00 UTC,10,SOL,,,,,,,,,0xsol', ''].join('\n'));
    await writeFile(path.join(dir, 'b.csv'), [header, '2024-05-01 11:00 UTC,,,9.99,SOL,,,,,,,0xsol', '2024-06-01 10:00 UTC,9.99,SOL,1500,GBP,,,1500,GBP,,,', ''].join('\n'));
    for (const [file, wallet] of [['a.csv', 'wallet-a'], ['b.csv', 'wallet-b']] as const) {
      expect((await runCli(['import', 'transactions', path.join(dir, file), '--wallet', wallet], { DATABASE_URL: fresh.url })).code).toBe(0);
    }
    // UK: one pool for the person; the 10 SOL cost 1,000, 9.99 of them were sold.
    const uk = path.join(dir, 'uk-sol');
    expect((await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'Europe/London', '--out', uk], { DATABASE_URL: fresh.url })).code).toBe(0);
    const sol = (await csv(path.join(uk, 'gains.csv'))).filter((g) => g.asset === 'SOL');
    expect(sol.map((g) => [g.matching, g.quantity, g.proceeds, g.cost, g.gain])).toEqual([['s104', '9.99', '1500.00', '999.00', '501.00']]);
    const dq = await csv(path.join(uk, 'gains-data-quality.csv'));
    expect(dq.filter((d) => d.problem === 'deposit_market_value')).toEqual([]);
    // FIFO per wallet: the lot travels from wallet-a to wallet-b with its date and cost.
    const fifo = path.join(dir, 'fifo-sol');
    expect((await runCli(['gains', '--year', '2024', '--rules', 'fifo', '--pools', 'wallet', '--fiat', 'GBP', '--out', fifo], { DATABASE_URL: fresh.url })).code).toBe(0);
    const lots = (await csv(path.join(fifo, 'gains.csv'))).filter((g) => g.asset === 'SOL');
    expect(lots.map((g) => [g.pool, g.date_acquired, g.quantity, g.cost, g.rule])).toEqual([['wallet-b', '2024-03-01', '9.99', '999.00', 'short']]);
  });
  it('US specific identification: --lots names the lot of a disposal; a bad file is one line with line and column', async () => {
    const header = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
    // 10 ADA for 100, then 10 ADA for 300, then 5 ADA sold for 200 (all 2025, one wallet).
    await writeFile(path.join(dir, 'ada.csv'), [header, '2025-01-10 10:00 UTC,100,GBP,10,ADA,,,100,GBP,,,', '2025-02-10 10:00 UTC,300,GBP,10,ADA,,,300,GBP,,,', '2025-03-10 10:00 UTC,5,ADA,200,GBP,,,200,GBP,,,', ''].join('\n'));
    expect((await runCli(['import', 'transactions', path.join(dir, 'ada.csv'), '--wallet', 'wallet-ada'], { DATABASE_URL: fresh.url })).code).toBe(0);
    const out = path.join(dir, 'us-ada');
    const args = ['gains', '--year', '2025', '--rules', 'us', '--fiat', 'GBP', '--tz', 'UTC', '--out', out];
    expect((await runCli(args, { DATABASE_URL: fresh.url })).code).toBe(0);
    const fifo = (await csv(path.join(out, 'gains.csv'))).filter((g) => g.asset === 'ADA');
    expect(fifo.map((g) => [g.matching, g.date_acquired, g.quantity, g.cost, g.gain])).toEqual([['fifo', '2025-01-10', '5', '50.00', '150.00']]);
    // The second lot's id, as gains.csv and holdings show it, named for the sale.
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    const { rows } = await client.query<{ refs: string }>("SELECT array_to_string(refs, ';') AS refs FROM gains_holdings WHERE asset = 'ADA' AND acquired_day = '2025-02-10' ORDER BY run_id DESC LIMIT 1")
      .finally(() => client.end());
    const secondLot = rows[0]?.refs ?? '';
    expect(secondLot).toContain('|');
    await writeFile(path.join(dir, 'lots.csv'), `disposal,lot,quantity\n${fifo[0]!.disposal_refs},${secondLot},5\n`);
    expect((await runCli([...args, '--force', '--lots', path.join(dir, 'lots.csv')], { DATABASE_URL: fresh.url })).code).toBe(0);
    const specific = (await csv(path.join(out, 'gains.csv'))).filter((g) => g.asset === 'ADA');
    expect(specific.map((g) => [g.matching, g.date_acquired, g.quantity, g.cost, g.gain, g.acquisition_refs])).toEqual([['specific', '2025-02-10', '5', '150.00', '50.00', secondLot]]);

    await writeFile(path.join(dir, 'bad-lots.csv'), `disposal,lot,quantity\n${fifo[0]!.disposal_refs},${secondLot},five\n`);
    const bad = await runCli([...args, '--force', '--lots', path.join(dir, 'bad-lots.csv')], { DATABASE_URL: fresh.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${path.join(dir, 'bad-lots.csv')} line 2 column 3 (quantity): "five" is not a positive decimal quantity`);
    expect(bad.stderr).not.toContain('    at ');
    const uk = await runCli(['gains', '--year', '2025', '--rules', 'uk', '--fiat', 'GBP', '--lots', path.join(dir, 'lots.csv'), '--out', path.join(dir, 'uk-lots')], { DATABASE_URL: fresh.url });
    expect(uk.code).toBe(2);
    expect(uk.stderr).toContain('--lots works only with --rules us');
  });
  it('HMRC CRYPTO22256 (Gulferaz) imported and matched through the CLI: HMRC\'s figures, and summary.txt to the penny', async () => {
    // The example's transactions as a Koinly file; the 100,000 token F pool is an opening purchase.
    // Last in the file: the other tests read every wallet of this database.
    const file = path.join(dir, 'crypto22256.csv');
    await writeFile(file, [
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
      '2020-01-01 10:00 UTC,300000,GBP,100000,TOKF,,,,,,,',
      '2024-07-31 09:00 UTC,45000,GBP,10000,TOKF,,,,,,,',
      '2024-07-31 15:00 UTC,30000,TOKF,150000,GBP,,,,,,,',
      '2024-08-05 10:00 UTC,20000,TOKF,100000,GBP,,,,,,,',
      '2024-08-06 10:00 UTC,225000,GBP,50000,TOKF,,,,,,,',
      '2024-08-07 10:00 UTC,100000,TOKF,150000,GBP,,,,,,,',
    ].join('\n'));
    expect((await runCli(['import', 'transactions', file, '--wallet', 'gulferaz'], { DATABASE_URL: fresh.url })).code).toBe(0);
    const out = path.join(dir, 'uk-22256');
    const r = await runCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'Europe/London', '--account', 'gulferaz', '--out', out], { DATABASE_URL: fresh.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const gains = await csv(path.join(out, 'gains.csv'));
    expect(gains.map((g) => [g.date_disposed, g.matching, g.date_acquired, g.quantity, g.proceeds, g.cost])).toEqual([
      ['2024-07-31', 'same-day', '2024-07-31', '10000', '50000.00', '45000.00'],
      ['2024-07-31', '30-day', '2024-08-06', '20000', '100000.00', '90000.00'],
      ['2024-08-05', '30-day', '2024-08-06', '20000', '100000.00', '90000.00'],
      ['2024-08-07', 's104', '', '100000', '150000.00', '313636.36'],
    ]);
    // HMRC: gains of £15,000 (31 July) and £10,000 (5 August); 7 August cost £313,637 (rounded up)
    // and a loss of £163,637. summary.json keeps the exact cost; gains.csv has it to the penny.
    const text = await readFile(path.join(out, 'summary.txt'), 'utf8');
    // SA108 boxes in whole pounds, costs and losses rounded up as HMRC rounds them: £163,637.
    expect(text).toContain('box 13.4  Gains in the year, before losses             GBP 25000');
    expect(text).toContain('box 13.5  Losses in the year                           GBP 163637');
    expect(text).toContain('Losses           GBP 163636.36');
    expect(text).toContain('TOKF       10000  GBP 31363.64');
    expect(r.stdout).toContain('3 disposals, gains GBP 25000.00, losses GBP 163636.36\n');
  });

  // Ctrl-C ended `gains` at once (Node's default), leaving its temporary files in the folder.
  it('Ctrl-C (SIGINT) mid-run keeps nothing of the run and exits 130', async () => {
    const out = path.join(dir, 'interrupted');
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    try {
      // The read of the ledger waits on this lock until the run is stopped.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE imported_transactions IN ACCESS EXCLUSIVE MODE');
      const { child, done } = startCli(['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--out', out], { DATABASE_URL: fresh.url });
      // (pg_stat_clear_snapshot: inside a transaction the activity view is read once and kept)
      await expect.poll(async () => (await holder.query(`SELECT pg_stat_clear_snapshot(), (SELECT count(*)::int FROM pg_stat_activity
        WHERE application_name LIKE 'tradeledger-gains-read%' AND wait_event_type = 'Lock') AS n`)).rows[0].n, { timeout: 60_000 }).toBeGreaterThan(0);
      child.kill('SIGINT');
      const r = await done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('tradeledger: stopped by SIGINT (Ctrl-C); nothing of this run was kept');
      await expect(readdir(out)).rejects.toThrow(/ENOENT/);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});
