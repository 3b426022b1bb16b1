import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { portalFixture } from './portalFixture.js';
import { browserForTests, portalArtifacts as artifacts, postForm, submitLogin } from './browser.js';
import { runCli } from '../support/runCli.js';
import { accountHealthCache } from '../../src/portal/accountHealth.js';
import { setGrants } from '../../src/portal/portalUsers.js';

// Screenshots go to .tradeledger/test-artifacts/portal/ (portalArtifacts, ignored by git).
const f = portalFixture();
const b = browserForTests('tl-portal-gains-');

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await submitLogin(page, f.portal.url, who);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
}

const unpricedOf = async (account: string): Promise<number> =>
  (await f.pool.query(`SELECT count(*)::int AS n FROM ledger_valued('USD') WHERE price_source = 'unpriced' AND account_uid = $1`, [account])).rows[0].n;

describe('unpriced rows on the accounts page', () => {
  it('shows each account\'s unpriced rows as a warning, and an imported file refreshes the cached warnings', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    const card = page.locator(`[data-account="${f.granted}"]`);
    const synced = await unpricedOf(f.granted);
    if (synced > 0) expect(await card.textContent()).toContain(`${synced} ledger row(s) have no USD value`);
    else expect(await card.textContent()).not.toContain('have no USD value');

    // Two receipts of a coin no candle prices, imported after the warnings were cached.
    const csv = path.join(b.scratch, 'paper.csv');
    await writeFile(csv, 'Date,Received Amount,Received Currency\n2025-03-10 10:00 UTC,3,NOPRICEX\n2025-03-11 10:00 UTC,4.5,NOPRICEX\n');
    const imported = await runCli(['import', 'transactions', csv, '--wallet', 'paper-wallet'], { DATABASE_URL: f.fresh.url });
    expect(imported.code).toBe(0);
    await setGrants(f.pool, f.accountant.username, ['paper-wallet'], true);
    expect(await unpricedOf('paper-wallet')).toBe(2);

    await page.goto(`${f.portal.url}/accounts`);
    const wallet = page.locator('[data-account="paper-wallet"]');
    const text = (await wallet.textContent())!;
    expect(text).toContain('2 ledger row(s) have no USD value');
    expect(text).toContain('imported wallet');
    expect(text).not.toContain('Never synced');
    // Rows without a value leave gains and values out: red, a tax figure changes (issue 20 item 7).
    expect(await wallet.getAttribute('class')).toContain('has-error');
    expect(await wallet.locator('li[data-code=unpriced]').getAttribute('data-severity')).toBe('red');
    expect(await page.textContent('#quality-banner')).toContain('have data-quality warnings');
    // The report page names them too.
    await page.goto(`${f.portal.url}/reports?account=paper-wallet`);
    expect(await page.textContent('[role=alert]')).toContain('2 ledger row(s) have no USD value');
    // Before any ECB rates, the gains form says a value can only be in USD (src/gains/incompleteFigures.ts).
    expect(await page.textContent('#gains-fiats-note')).toContain('Values in USD only: no ECB rates are imported');
    // And the report form, whose valued-ledger.csv and tool files would have empty values.
    expect(await page.textContent('#report-fiats-note')).toContain('Values in USD only: no ECB rates are imported, so in any other currency valued-ledger.csv');
    await page.goto(`${f.portal.url}/accounts`);
    await page.screenshot({ path: path.join(artifacts, 'accounts-unpriced.png'), fullPage: true });
    await setGrants(f.pool, f.accountant.username, ['paper-wallet'], false);
    await page.close();
  });

  it('before any ECB rates, a download whose values need them says so in its saved name and a header; one that needs none does not', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    const query = `account=${f.granted}&format=native&period=range&from=2025-01-01&to=2026-01-01&tz=UTC`;
    const named = (res: { headers(): Record<string, string> }) => res.headers()['content-disposition'];
    const valued = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`${query}&file=valued-ledger.csv&fiat=GBP`)));
    expect(valued.status()).toBe(200);
    expect(named(valued)).toBe(`attachment; filename="tradeledger_${f.granted}_2025-01-01_2026-01-01_native_NO-GBP-VALUES_valued-ledger.csv"`);
    expect(valued.headers()['x-tradeledger-missing-rates']).toBe('GBP, USD');
    // The values it would have are empty: the mark is not a guess.
    const lines = (await valued.text()).trim().split('\n');
    const header = lines[0]!.split(',');
    const value = header.indexOf('value');
    expect(value).toBeGreaterThan(-1);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).filter((l) => l.split(',')[value] !== '')).toEqual([]);
    const zip = await postForm(page, `${f.portal.url}/download/zip`, Object.fromEntries(new URLSearchParams(`${query}&fiat=GBP`)));
    expect(named(zip)).toBe(`attachment; filename="tradeledger_${f.granted}_2025-01-01_2026-01-01_native_NO-GBP-VALUES.zip"`);
    await zip.body();
    // ledger.csv has no values, and USD needs no ECB rate: neither is marked.
    const ledger = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`${query}&file=ledger.csv&fiat=GBP`)));
    expect(named(ledger)).toBe(`attachment; filename="tradeledger_${f.granted}_2025-01-01_2026-01-01_native_ledger.csv"`);
    expect(ledger.headers()['x-tradeledger-missing-rates']).toBeUndefined();
    await ledger.body();
    const usd = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`${query}&file=koinly.csv&format=koinly&fiat=USD`)));
    expect(named(usd)).toBe(`attachment; filename="tradeledger_${f.granted}_2025-01-01_2026-01-01_koinly_koinly.csv"`);
    await usd.body();
    // The audit row names the mark too (written once the response has ended).
    await expect.poll(async () => (await f.pool.query(`SELECT file FROM portal_downloads WHERE file LIKE 'NO-GBP-VALUES/%' ORDER BY id`)).rows.map((r) => r.file))
      .toEqual(['NO-GBP-VALUES/valued-ledger.csv']);
    await page.close();
  });

  it('keeps the cached warnings while nothing changes, and reads them again after `import fx`', async () => {
    const cache = accountHealthCache(f.pool);
    const first = await cache.read();
    expect(await cache.read()).toBe(first);
    const rates = path.join(b.scratch, 'eurofxref-hist.csv');
    await writeFile(rates, 'Date,USD,GBP,\n2025-03-04,1.0625,0.83,\n2025-03-03,1.05,0.825,\n');
    const imported = await runCli(['import', 'fx', rates], { DATABASE_URL: f.fresh.url });
    expect(imported.code).toBe(0);
    const after = await cache.read();
    expect(after).not.toBe(first);
    expect(await cache.read()).toBe(after);
  });

  it('after `import fx` the gains form names the currencies a value can be in', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}`);
    expect(await page.textContent('#gains-fiats-note')).toContain('Values in USD, or in EUR, GBP (the ECB rates imported)');
    expect(await page.textContent('#report-fiats-note')).toContain('Values in USD, or in EUR, GBP (the ECB rates imported). In any other currency');
    expect(await page.getAttribute('#report-form input[name=fiat]', 'list')).toBe('gains-fiats');
    expect(await page.textContent('#gains-fiats-note')).toContain('A country\'s rules file in its own currency (uk GBP, us USD, de EUR, au AUD, ca CAD)');
    expect(await page.locator('#gains-fiats option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toEqual(['USD', 'EUR', 'GBP']);
    await page.locator('#gains').screenshot({ path: path.join(artifacts, 'reports-gains-fiats.png') });
    await page.close();
  });
});

describe('reports in another fiat', () => {
  it('a valued-ledger.csv download in EUR is the file `tradeledger report --fiat EUR` writes; a bad fiat is refused', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    const query = `account=${f.granted}&format=native&period=range&from=2025-01-01&to=2026-01-01&tz=UTC`;
    const res = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`${query}&file=valued-ledger.csv&fiat=eur`)));
    expect(res.status()).toBe(200);
    // EUR's rates are imported now (the test before): the download is not marked.
    expect(res.headers()['content-disposition']).toBe(`attachment; filename="tradeledger_${f.granted}_2025-01-01_2026-01-01_native_valued-ledger.csv"`);
    expect(res.headers()['x-tradeledger-missing-rates']).toBeUndefined();
    const body = await res.body();
    const out = path.join(b.scratch, 'cli-eur');
    const cli = await runCli(['report', '--from', '2025-01-01', '--to', '2026-01-01', '--tz', 'UTC', '--account', f.granted, '--fiat', 'EUR', '--out', out],
      { DATABASE_URL: f.fresh.url });
    expect(cli.code).toBe(0);
    const fromCli = await readFile(path.join(out, 'valued-ledger.csv'));
    expect(fromCli.toString('utf8').split('\n')[1]).toContain(',EUR,');
    expect(body.equals(fromCli)).toBe(true);
    const bad = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`${query}&file=valued-ledger.csv&fiat=euro`)));
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain('fiat &quot;euro&quot; is not an ISO 4217 currency code');
    await page.close();
  });
});

describe('gains reports', () => {
  // The year with the granted account's most spot fills: it has disposals to match.
  const busiestYear = async (): Promise<string> => String((await f.pool.query(
    `SELECT extract(year FROM c_time AT TIME ZONE 'UTC')::int AS y FROM spot_fills WHERE account_uid = $1 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    [f.granted])).rows[0].y);

  it('downloads the gains folder as a zip and as single files, equal to `tradeledger gains` apart from the time stamp and run id; audited', async () => {
    const year = await busiestYear();
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}&year=${year}`);
    await page.selectOption('#gains-form select[name=rules]', 'us');
    await page.fill('#gains-form input[name=year]', year);
    await page.fill('#gains-form input[name=fiat]', 'usd');
    await page.fill('#gains-form input[name=tz]', 'UTC');
    await page.keyboard.press('Escape'); // closes the time zones' suggestion list
    await page.screenshot({ path: path.join(artifacts, 'reports-gains.png'), fullPage: true });
    const [zipDownload] = await Promise.all([page.waitForEvent('download'), page.click('#gains-zip')]);
    expect(zipDownload.suggestedFilename()).toBe(`tradeledger_${f.granted}_gains_${year}-us-USD.zip`);
    const zipPath = path.join(b.scratch, 'gains.zip');
    await zipDownload.saveAs(zipPath);
    const unpacked = path.join(b.scratch, 'gains-unzipped');
    execFileSync('unzip', ['-q', '-o', zipPath, '-d', unpacked]);
    const folder = path.join(unpacked, 'gains', `${year}-us-USD`);

    const out = path.join(b.scratch, 'cli-gains');
    const cli = await runCli(['gains', '--year', year, '--rules', 'us', '--fiat', 'USD', '--tz', 'UTC', '--account', f.granted, '--out', out],
      { DATABASE_URL: f.fresh.url });
    expect(cli.code).toBe(0);
    const cliFiles = (await readdir(out)).sort();
    expect(cliFiles).toEqual(['form-8949.csv', 'gains-data-quality.csv', 'gains.csv', 'income.csv', 'manifest.json', 'summary.json', 'summary.txt']);
    expect((await readdir(folder)).sort()).toEqual(cliFiles);
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8'));
    const cliManifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.runId).not.toBe(cliManifest.runId);
    expect({ ...manifest, generatedAt: 'x', runId: 'x' }).toEqual({ ...cliManifest, generatedAt: 'x', runId: 'x' });
    for (const file of cliFiles.filter((x) => x !== 'manifest.json')) {
      expect((await readFile(path.join(folder, file))).equals(await readFile(path.join(out, file))), file).toBe(true);
    }
    // Real disposals, not an empty year.
    expect((await readFile(path.join(out, 'gains.csv'), 'utf8')).trim().split('\n').length).toBeGreaterThan(1);

    await page.selectOption('#gains-form select[name=file]', 'form-8949.csv');
    const [fileDownload] = await Promise.all([page.waitForEvent('download'), page.click('#gains-file')]);
    expect(fileDownload.suggestedFilename()).toBe(`tradeledger_${f.granted}_gains_${year}-us-USD_form-8949.csv`);
    const form = await readFile((await fileDownload.path())!);
    expect(form.equals(await readFile(path.join(out, 'form-8949.csv')))).toBe(true);

    await expect.poll(async () => (await f.pool.query(`SELECT count(*)::int AS n FROM portal_downloads WHERE format = 'gains-us-USD'`)).rows[0].n).toBe(2);
    const audit = (await f.pool.query(
      `SELECT username, account_uid, format, period_from::text AS period_from, period_to::text AS period_to, tz, file, bytes, sha256, complete
       FROM portal_downloads WHERE format = 'gains-us-USD' ORDER BY id`)).rows;
    const zipBytes = await readFile(zipPath);
    const common = { username: 'anna', account_uid: f.granted, format: 'gains-us-USD', period_from: `${year}-01-01`, period_to: `${Number(year) + 1}-01-01`, tz: 'UTC', complete: true };
    expect(audit).toEqual([
      { ...common, file: `tradeledger_${f.granted}_gains_${year}-us-USD.zip`, bytes: String(zipBytes.length), sha256: createHash('sha256').update(zipBytes).digest('hex') },
      { ...common, file: `${year}-us-USD/form-8949.csv`, bytes: String(form.length), sha256: createHash('sha256').update(form).digest('hex') },
    ]);
    await page.close();
  });

  it('marks a download of a year not over yet NOT-READY-TO-FILE in its name and a header, and says so on the form', async () => {
    // The current year has not ended (incompleteFigures.ts, period_open): its figures are the year
    // so far. The busiest-year test above downloads a year that has, under the plain name.
    const year = String(new Date().getUTCFullYear());
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}`);
    expect(await page.textContent('#gains')).toContain('downloads with NOT-READY-TO-FILE in its name');
    const fields = { account: f.granted, rules: 'fifo', year, fiat: 'USD', tz: 'UTC' };
    const single = await postForm(page, `${f.portal.url}/gains/download/file`, { ...fields, file: 'gains.csv' });
    expect(single.status()).toBe(200);
    expect(single.headers()['content-disposition']).toBe(`attachment; filename="tradeledger_${f.granted}_gains_${year}-fifo-USD_NOT-READY-TO-FILE_gains.csv"`);
    expect(single.headers()['x-tradeledger-not-ready-to-file']).toContain('period_open');
    const zip = await postForm(page, `${f.portal.url}/gains/download/zip`, fields);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-disposition']).toBe(`attachment; filename="tradeledger_${f.granted}_gains_${year}-fifo-USD_NOT-READY-TO-FILE.zip"`);
    // The audit carries the mark too: the zip by its saved name, the single file by its marked folder path.
    await expect.poll(async () => (await f.pool.query(
      `SELECT count(*)::int AS n FROM portal_downloads WHERE format = 'gains-fifo-USD' AND file LIKE '%NOT-READY-TO-FILE%'`)).rows[0].n).toBe(2);
    expect((await f.pool.query(`SELECT file FROM portal_downloads WHERE format = 'gains-fifo-USD' ORDER BY id`)).rows.map((r) => r.file))
      .toEqual([`${year}-fifo-USD_NOT-READY-TO-FILE/gains.csv`, `tradeledger_${f.granted}_gains_${year}-fifo-USD_NOT-READY-TO-FILE.zip`]);
    await page.close();
  });

  it('refuses another account, every account for an accountant, and a bad form, like the report downloads', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    const before = (await f.pool.query('SELECT count(*)::int AS n FROM portal_downloads')).rows[0].n;
    const other = await postForm(page, `${f.portal.url}/gains/download/zip`, Object.fromEntries(new URLSearchParams(`account=${f.other}&rules=uk&year=2025&fiat=GBP&tz=UTC`)));
    expect(other.status()).toBe(404);
    const single = await postForm(page, `${f.portal.url}/gains/download/file`, Object.fromEntries(new URLSearchParams(`account=${f.other}&rules=uk&year=2025&fiat=GBP&file=gains.csv`)));
    expect(single.status()).toBe(404);
    const all = await postForm(page, `${f.portal.url}/gains/download/zip`, Object.fromEntries(new URLSearchParams(`account=&rules=uk&year=2025&fiat=GBP`)));
    expect(all.status()).toBe(403);
    const rules = await postForm(page, `${f.portal.url}/gains/download/zip`, Object.fromEntries(new URLSearchParams(`account=${f.granted}&rules=nz&year=2025&fiat=GBP`)));
    expect(rules.status()).toBe(400);
    expect(await rules.text()).toContain('rules &quot;nz&quot; is not one of uk, us, de, au, ca, fifo, lifo, hifo, average');
    const form = await postForm(page, `${f.portal.url}/gains/download/file`, Object.fromEntries(new URLSearchParams(`account=${f.granted}&rules=uk&year=2025&fiat=GBP&file=form-8949.csv`)));
    expect(form.status()).toBe(400);
    expect(await form.text()).toContain('the uk gains folder has no file &quot;form-8949.csv&quot;');
    const zone = await postForm(page, `${f.portal.url}/gains/download/zip`, Object.fromEntries(new URLSearchParams(`account=${f.granted}&rules=uk&year=2025&fiat=GBP&tz=Mars/Olympus`)));
    expect(zone.status()).toBe(400);
    expect(await zone.text()).toContain('Mars/Olympus');
    const denied = (await f.pool.query(
      `SELECT account_uid, status, path FROM portal_access_denied WHERE path LIKE '/gains/%' ORDER BY id`)).rows;
    expect(denied).toEqual([
      { account_uid: f.other, status: 404, path: '/gains/download/zip' },
      { account_uid: f.other, status: 404, path: '/gains/download/file' },
      { account_uid: '', status: 403, path: '/gains/download/zip' },
    ]);
    expect((await f.pool.query('SELECT count(*)::int AS n FROM portal_downloads')).rows[0].n).toBe(before);
    await page.close();
  });
});

describe('demo-trading accounts on the report and gains forms (issue 20 item 1)', () => {
  const demoUid = async (): Promise<string> => (await f.pool.query(`SELECT uid FROM accounts WHERE kind = 'demo'`)).rows[0].uid;
  const download = async (page: Page, button: string): Promise<string> => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return (await readFile((await d.path())!)).toString('utf8');
  };

  it('the gains form as it opens (uk rules, Fiat and Time zone empty) gives the return\'s own currency and zone, whatever the report form\'s zone', async () => {
    const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}&year=${year}&tz=Asia/Tokyo`);
    expect(await page.inputValue('#gains-form select[name=rules]')).toBe('uk');
    expect(await page.inputValue('#gains-form input[name=fiat]')).toBe('');
    expect(await page.inputValue('#gains-form input[name=tz]')).toBe('');
    expect(await page.textContent('#gains-fiats-note')).toContain('Left empty (auto), Fiat is the rules\' own currency (USD for fifo, lifo, hifo and average) and Time zone the rules\' own zone (uk Europe/London, de Europe/Berlin');
    await page.fill('#gains-form input[name=year]', year);
    await page.selectOption('#gains-form select[name=file]', 'summary.json');
    const uk = JSON.parse(await download(page, '#gains-file'));
    expect([uk.rules, uk.fiat, uk.period.tz]).toEqual(['uk', 'GBP', 'Europe/London']);
    // Until now the form held USD and the report form's zone: a UK return's figures in dollars, its days in Tokyo's.
    await page.selectOption('#gains-form select[name=rules]', 'fifo');
    const fifo = JSON.parse(await download(page, '#gains-file'));
    expect([fifo.rules, fifo.fiat, fifo.period.tz]).toEqual(['fifo', 'USD', 'UTC']);
    // A country of several zones: the form asks, as the CLI does (it counted in UTC before).
    const usNoZone = await postForm(page, `${f.portal.url}/gains/download/file`, { account: f.granted, rules: 'us', year, fiat: '', tz: '', file: 'summary.json' });
    expect(usNoZone.status()).toBe(400);
    const refusal = await usNoZone.text();
    expect(refusal).toContain('the us rules need a time zone');
    expect(refusal).toContain('Fill in Time zone with yours, e.g. America/New_York');
    await page.close();
  });

  it('the report form leaves the demo account out of a tax file unless "Include demo-trading accounts" is ticked', async () => {
    const uid = await demoUid();
    const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
    const page = await b.newPage();
    await signIn(page, f.admin);
    await page.goto(`${f.portal.url}/reports?account=&format=koinly&period=year&year=${year}&tz=UTC`);
    expect(await page.isChecked('#report-include-demo')).toBe(false);
    expect(await page.textContent('label[for=report-include-demo]')).toContain('Include demo-trading (paper) accounts');
    await page.screenshot({ path: path.join(artifacts, 'reports-demo-option.png'), fullPage: true });
    const without = await download(page, '#download-file');
    expect(without.split('\n').length).toBeGreaterThan(100);
    expect(without).not.toContain(uid);
    expect(without).not.toContain('DEMO');

    await page.check('#report-include-demo');
    const withDemo = await download(page, '#download-file');
    const demoLines = withDemo.split('\n').filter((l) => l.includes(uid));
    expect(demoLines.length).toBeGreaterThan(20);
    // Valued 0 (Net Worth "0" in USD), marked DEMO in the description.
    for (const line of demoLines) expect(line).toMatch(/,0,USD,.*"?DEMO \(paper trading/);
    // The zip's manifest says what was done and names the account.
    const [zip] = await Promise.all([page.waitForEvent('download'), page.click('#download-zip')]);
    const zipPath = path.join(b.scratch, 'koinly-demo.zip');
    await zip.saveAs(zipPath);
    const unpacked = path.join(b.scratch, 'koinly-demo');
    execFileSync('unzip', ['-q', '-o', zipPath, '-d', unpacked]);
    const manifest = JSON.parse(await readFile(path.join(unpacked, year, 'koinly', 'manifest.json'), 'utf8'));
    expect(manifest.parameters.includeDemo).toBe(true);
    expect(manifest.demo.accounts.map((a: { account: string }) => a.account)).toEqual([uid]);
    await page.close();
  });

  it('the gains form leaves the demo account out (the summary names it) unless ticked; ticked, Form 8949 has its rows at 0', async () => {
    const uid = await demoUid();
    const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
    const page = await b.newPage();
    await signIn(page, f.admin);
    await page.goto(`${f.portal.url}/reports?account=&year=${year}`);
    expect(await page.isChecked('#gains-include-demo')).toBe(false);
    await page.selectOption('#gains-form select[name=rules]', 'us');
    await page.fill('#gains-form input[name=year]', year);
    await page.fill('#gains-form input[name=tz]', 'UTC');
    await page.keyboard.press('Escape');
    await page.selectOption('#gains-form select[name=file]', 'summary.json');
    const summary = JSON.parse(await download(page, '#gains-file'));
    expect(summary.demo.included).toBe(false);
    expect(summary.demo.accounts).toEqual([{ account: uid, name: 'demo', reason: expect.stringContaining('demo-trading (paper) account') }]);
    await page.selectOption('#gains-form select[name=file]', 'form-8949.csv');
    const form = await download(page, '#gains-file');
    expect(form).not.toContain(uid);

    await page.check('#gains-include-demo');
    await page.screenshot({ path: path.join(artifacts, 'reports-gains-demo-option.png'), fullPage: true });
    const formWithDemo = await download(page, '#gains-file');
    const demoLines = formWithDemo.split('\n').filter((l) => l.includes(uid));
    expect(demoLines.length).toBeGreaterThan(0);
    // proceeds, cost and gain 0.00 (columns 6, 7 and 10 of form-8949.csv)
    for (const line of demoLines) expect(line).toMatch(/,0\.00,0\.00,[^,]*,[^,]*,0\.00,/);
    await page.selectOption('#gains-form select[name=file]', 'summary.json');
    expect(JSON.parse(await download(page, '#gains-file')).demo.included).toBe(true);
    await page.close();
  });
});
