import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { portalFixture } from './portalFixture.js';
import { browserForTests, portalArtifacts as artifacts, postForm, submitLogin } from './browser.js';
import { runCli } from '../support/runCli.js';
import { testSyncOptions } from '../support/testSync.js';
import { runSync } from '../../src/extract/runSync.js';
import { addUser } from '../../src/portal/portalUsers.js';

// Issue 22 item 6, end to end: a synced sandbox account, the real CLI as a child process, the
// portal in headless Chromium. A withdrawal is classified as a gift (CLI) and a deposit as staking
// income (portal); gains, income.csv, koinly.csv and the portal show both; a re-sync keeps them;
// undoing both (portal, CLI) gives back byte-equal files; an accountant without a grant is refused.
const f = portalFixture();
const b = browserForTests('tl-portal-corrections-');
const bob = { username: 'bob', password: 'bob password 12345' };

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await submitLogin(page, f.portal.url, who);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
}

const csvLines = (text: string) => text.trimEnd().split('\n');

describe('audited corrections (tradeledger classify and the portal)', () => {
  it('classifies a withdrawal as a gift and a deposit as income, flows into gains, income, koinly.csv and the portal, and undo restores the files byte for byte', async () => {
    const env = { DATABASE_URL: f.fresh.url };
    const account = f.granted;
    await addUser(f.pool, { ...bob, role: 'accountant', accounts: [f.other] }); // no grant on `account`

    // The first year with a priced withdrawal and a priced deposit of the account, both to/from outside
    // (not an own-account movement, which the tax files leave out). Not the current year: the
    // re-sync below brings the current hour's candle anew, which moves today's values by itself.
    const { rows: picks } = await f.pool.query<{ year: number; withdrawal: string; deposit: string }>(
      `WITH t AS (
         SELECT extract(year FROM t.ts)::int AS year, t.kind, t.source, t.source_id, t.ts
         FROM tax_transactions('-infinity', 'infinity', $1) t
         JOIN ledger_valued('USD') v ON v.account_uid = t.account_uid AND v.source = t.source AND v.source_id = t.source_id AND v.leg = 'amount'
         WHERE NOT t.own_account AND t.kind IN ('deposit', 'withdrawal') AND t.source IN ('deposits', 'withdrawals') AND v.value IS NOT NULL
           AND v.coin NOT IN ('USDT', 'USDC', 'USD')
       )
       SELECT w.year, w.source || ':' || w.source_id AS withdrawal, d.source || ':' || d.source_id AS deposit
       FROM t w JOIN t d ON d.year = w.year AND d.kind = 'deposit'
       WHERE w.kind = 'withdrawal' AND w.year < (SELECT max(extract(year FROM l.ts))::int FROM ledger l)
       ORDER BY w.year, w.ts, d.ts LIMIT 1`, [account]);
    expect(picks.length, 'the sandbox account has a priced withdrawal and deposit in one year').toBe(1);
    const { year, withdrawal, deposit } = picks[0]!;
    const ref = (row: string) => `${row.replace(':', '|')}|amount`;
    const outDir = (name: string) => path.join(b.scratch, name);

    // The figures before any correction.
    const files = async (name: string) => {
      const report = await runCli(['report', '--year', String(year), '--account', account, '--format', 'koinly', '--out', outDir(`${name}-koinly`)], env);
      expect(report.code, report.stderr).toBe(0);
      const gains = await runCli(['gains', '--year', String(year), '--rules', 'fifo', '--fiat', 'USD', '--tz', 'UTC', '--account', account, '--out', outDir(`${name}-gains`)], env);
      expect(gains.code, gains.stderr).toBe(0);
      const read = (dir: string, file: string) => readFile(path.join(outDir(`${name}-${dir}`), file), 'utf8');
      return {
        koinly: await read('koinly', 'koinly.csv'), gains: await read('gains', 'gains.csv'), income: await read('gains', 'income.csv'),
        koinlyManifest: JSON.parse(await read('koinly', 'manifest.json')), gainsManifest: JSON.parse(await read('gains', 'manifest.json')),
      };
    };
    const before = await files('before');
    const koinlyRow = (csv: string, row: string) => csvLines(csv).find((l) => l.includes(` ${row}`));
    expect(koinlyRow(before.koinly, withdrawal)).toBeDefined();
    expect(koinlyRow(before.koinly, deposit)).toBeDefined();
    expect(before.income).not.toContain(ref(deposit));
    expect(before.gains).not.toContain(ref(withdrawal)); // a withdrawal is a move out, not a disposal
    expect(before.koinlyManifest.files[0].corrections).toBe(0);

    // Refusals: no grant (CLI), an unknown row, an unknown kind, a kind that does not fit, no --why.
    const setArgs = (who: string, row: string, kind: string, why = 'a birthday present to her son') =>
      ['classify', 'set', '--user', who, '--account', account, '--row', row, '--as', kind, '--why', why];
    const refused = await runCli(setArgs('bob', withdrawal, 'gift_sent'), env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`bob may not correct account ${account}: no grant on it`);
    const unknownRow = await runCli(setArgs('anna', 'withdrawals:no-such-id', 'gift_sent'), env);
    expect(unknownRow.code).toBe(2);
    expect(unknownRow.stderr).toContain(`account ${account} has no ledger row withdrawals:no-such-id`);
    expect(unknownRow.stderr).toContain('classify rows --account');
    const unknownKind = await runCli(setArgs('anna', withdrawal, 'present'), env);
    expect(unknownKind.code).toBe(2);
    expect(unknownKind.stderr).toContain('"present" is not a classification');
    const wrongWay = await runCli(setArgs('anna', withdrawal, 'income_staking'), env);
    expect(wrongWay.code).toBe(2);
    expect(wrongWay.stderr).toContain('income_staking is for coins going in');
    const noWhy = await runCli(['classify', 'set', '--user', 'anna', '--account', account, '--row', withdrawal, '--as', 'gift_sent'], env);
    expect(noWhy.code).not.toBe(0);
    expect(noWhy.stderr).toContain('--why');
    expect((await f.pool.query('SELECT count(*)::int AS n FROM ledger_corrections')).rows[0].n).toBe(0);

    // The withdrawal: a gift, through the CLI.
    const set = await runCli(setArgs('anna', withdrawal, 'gift_sent'), env);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^set #\d+ /);

    // The deposit: staking income, through the portal in Chromium.
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await page.goto(`${f.portal.url}/accounts/${account}`);
    await page.click('#corrections-link');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/accounts/${account}/corrections`);
    expect(await page.locator(`#corrections-in-force tr[data-row="${withdrawal}"]`).textContent()).toContain('gift_sent');
    await page.fill('#correction-form input[name=row]', deposit);
    await page.selectOption('#correction-form select[name=classification]', 'income_staking');
    await page.fill('#correction-form input[name=why]', 'staking reward paid out by the pool');
    await page.click('#correction-form button[type=submit]');
    await expect.poll(async () => (await page.textContent('#correction-message')) ?? '').toContain('saved');
    const depositRow = page.locator(`#corrections-in-force tr[data-row="${deposit}"]`);
    expect(await depositRow.textContent()).toContain('income_staking');
    expect(await depositRow.textContent()).toContain('anna');
    // A bad form is refused with the CLI's own words.
    await page.fill('#correction-form input[name=row]', 'deposits:nope');
    await page.selectOption('#correction-form select[name=classification]', 'income');
    await page.fill('#correction-form input[name=why]', 'x');
    await page.click('#correction-form button[type=submit]');
    await expect.poll(async () => (await page.textContent('#correction-message')) ?? '').toContain('has no ledger row deposits:nope');
    await page.goto(`${f.portal.url}/accounts/${account}/corrections`);
    await page.screenshot({ path: path.join(artifacts, 'corrections.png'), fullPage: true });
    // At 1280 px (test/portal/browser.ts) every column of both tables shows: who made a correction
    // and its undo were cut off at the card's edge, behind a sideways scroll at the foot of the table.
    expect(page.viewportSize()?.width).toBe(1280);
    for (const table of ['#corrections-in-force', '#correctable-rows-card']) {
      const fit = await page.locator(`${table} .table-wrap`).evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(fit.scroll, `${table}: its table is ${fit.scroll} px wide in a ${fit.client} px card`).toBeLessThanOrEqual(fit.client);
    }
    // The Undo button's text is not the colour it is drawn on (it was white on the white card: the
    // header's sign-out style).
    const undoLook = await page.locator('#corrections-in-force button[type=submit]').first().evaluate((b) => {
      // the page's own DOM (this file is compiled without the DOM's types)
      const style = (e: unknown): { color: string; backgroundColor: string } => (globalThis as unknown as { getComputedStyle: (e: unknown) => { color: string; backgroundColor: string } }).getComputedStyle(e);
      type Node = { parentElement: Node | null; getBoundingClientRect(): { width: number } };
      let e: Node | null = b as unknown as Node;
      let ground = 'rgba(0, 0, 0, 0)';
      while (e && (ground === 'rgba(0, 0, 0, 0)' || ground === 'transparent')) { ground = style(e).backgroundColor; e = e.parentElement; }
      return { text: style(b).color, ground, width: (b as unknown as Node).getBoundingClientRect().width };
    });
    expect(undoLook.text, 'the Undo button\'s text colour').not.toBe(undoLook.ground);
    expect(undoLook.width).toBeGreaterThan(0);

    // Who, when and why are in PostgreSQL.
    const { rows: stored } = await f.pool.query(
      `SELECT source || ':' || source_id AS row, classification, set_by, why, set_at IS NOT NULL AS stamped FROM ledger_corrections_in_force ORDER BY id`);
    expect(stored).toEqual([
      { row: withdrawal, classification: 'gift_sent', set_by: 'anna', why: 'a birthday present to her son', stamped: true },
      { row: deposit, classification: 'income_staking', set_by: 'anna', why: 'staking reward paid out by the pool', stamped: true },
    ]);

    // A re-sync (the sandbox's history upserted again) leaves both in force.
    const resync = await runSync(testSyncOptions(f.sandbox, f.fresh.db));
    expect(resync.errors).toEqual([]);

    const after = await files('after');
    // koinly.csv: the gift and the staking tags, and the correction named in the Description.
    expect(koinlyRow(after.koinly, withdrawal)).toMatch(/,gift,withdrawal .* corrected:gift_sent #\d+,/);
    expect(koinlyRow(after.koinly, deposit)).toMatch(/,staking,deposit .* corrected:income_staking #\d+,/);
    expect(after.koinlyManifest.files[0].corrections).toBe(2);
    // gains: the gift is a disposal at market value; income.csv: the staking reward.
    expect(after.gains).toContain(ref(withdrawal));
    const incomeLine = csvLines(after.income).find((l) => l.includes(ref(deposit)));
    expect(incomeLine).toMatch(/,staking,/);
    expect(after.gainsManifest.corrections.inForce).toBe(2);
    for (const file of after.gainsManifest.files) expect(file.corrections, file.file).toBe(2);

    // corrections.csv (native set) lists both.
    const native = await runCli(['report', '--year', String(year), '--account', account, '--out', outDir('after-native')], env);
    expect(native.code, native.stderr).toBe(0);
    const correctionsCsv = await readFile(path.join(outDir('after-native'), 'corrections.csv'), 'utf8');
    expect(csvLines(correctionsCsv)).toHaveLength(3);
    expect(correctionsCsv).toContain('gift_sent');
    expect(correctionsCsv).toContain('income_staking');
    const nativeManifest = JSON.parse(await readFile(path.join(outDir('after-native'), 'manifest.json'), 'utf8'));
    const entry = (file: string) => nativeManifest.files.find((x: { file: string }) => x.file === file);
    expect([entry('corrections.csv').corrections, entry('valued-ledger.csv').corrections, entry('ledger.csv').corrections]).toEqual([2, 2, 0]);

    // The portal shows the same: its gains download (runGains) and its koinly.csv.
    const incomeFromPortal = await postForm(page, `${f.portal.url}/gains/download/file`, { account, rules: 'fifo', year: String(year), fiat: 'USD', tz: 'UTC', file: 'income.csv' });
    expect(incomeFromPortal.status()).toBe(200);
    expect(await incomeFromPortal.text()).toBe(after.income);
    const koinlyFromPortal = await postForm(page, `${f.portal.url}/download/file`, { account, period: 'year', year: String(year), tz: 'UTC', format: 'koinly', fiat: 'USD', file: 'koinly.csv' });
    expect(koinlyFromPortal.status()).toBe(200);
    expect(await koinlyFromPortal.text()).toBe(after.koinly);

    // Undo: the deposit's in the portal, the withdrawal's with the CLI (bob may not).
    const depositId = await depositRow.getAttribute('data-correction');
    await page.fill(`#corrections-in-force tr[data-correction="${depositId}"] input[name=why]`, 'it was a refund after all');
    await page.click(`#corrections-in-force tr[data-correction="${depositId}"] button[type=submit]`);
    await expect.poll(async () => (await page.textContent('#correction-message')) ?? '').toContain(`#${depositId} undone`);
    const withdrawalId = String(stored.length === 2 ? (await f.pool.query(`SELECT id::text FROM ledger_corrections_in_force`)).rows[0].id : '');
    const bobUndo = await runCli(['classify', 'undo', '--user', 'bob', '--id', withdrawalId, '--why', 'no'], env);
    expect(bobUndo.code).toBe(2);
    expect(bobUndo.stderr).toContain('no grant');
    const undo = await runCli(['classify', 'undo', '--user', 'anna', '--id', withdrawalId, '--why', 'the client sold it after all'], env);
    expect(undo.code, undo.stderr).toBe(0);
    const list = await runCli(['classify', 'list', '--user', 'anna', '--account', account, '--history', '--json'], env);
    const history = JSON.parse(list.stdout) as { inForce: boolean; undoneBy: string; undoWhy: string }[];
    expect(history.map((c) => [c.inForce, c.undoneBy, c.undoWhy])).toEqual([
      [false, 'anna', 'it was a refund after all'], [false, 'anna', 'the client sold it after all'],
    ]);
    await page.close();

    // An accountant without a grant is refused by the portal: the page, and a POST with bob's own CSRF token.
    await b.context.clearCookies();
    const bobPage = await b.newPage();
    await submitLogin(bobPage, f.portal.url, bob);
    await expect.poll(() => new URL(bobPage.url()).pathname).toBe('/accounts');
    const bobGet = await bobPage.goto(`${f.portal.url}/accounts/${account}/corrections`);
    expect(bobGet?.status()).toBe(404);
    await bobPage.goto(`${f.portal.url}/accounts`);
    const bobCsrf = await bobPage.locator('form.whoami input[name=_csrf]').inputValue();
    const bobPost = await bobPage.evaluate(async ({ url, csrf, row }) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: csrf, row, classification: 'lost', why: 'not mine to say' }) });
      return res.status;
    }, { url: `${f.portal.url}/accounts/${account}/corrections`, csrf: bobCsrf, row: withdrawal });
    expect(bobPost).toBe(404);
    const { rows: denied } = await f.pool.query(`SELECT count(*)::int AS n FROM portal_access_denied WHERE username = 'bob' AND account_uid = $1`, [account]);
    expect(denied[0].n).toBe(2);
    expect((await f.pool.query('SELECT count(*)::int AS n FROM ledger_corrections')).rows[0].n).toBe(2);
    await bobPage.close();


    const undone = await files('undone');
    expect(undone.koinly).toBe(before.koinly);
    expect(undone.gains).toBe(before.gains);
    expect(undone.income).toBe(before.income);
    expect(undone.koinlyManifest.files[0].corrections).toBe(0);
  });
});
