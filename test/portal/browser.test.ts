import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { portalFixture, wholeHistory } from './portalFixture.js';
import { browserForTests, htmxSettled, portalArtifacts as artifacts, postForm, submitLogin } from './browser.js';
import { runCli } from '../support/runCli.js';

// Screenshots go to .tradeledger/test-artifacts/portal/ (portalArtifacts, ignored by git).
const f = portalFixture({ maxFailuresPerUser: 3, idleMs: 30 * 60_000 });
const b = browserForTests('tl-portal-browser-');
beforeEach(async () => {
  f.clock.offsetMs = 0;
  await f.pool.query('DELETE FROM portal_login_failures');
});

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await submitLogin(page, f.portal.url, who);
}

describe('signing in and out', () => {
  it('signs in, lands on the accounts page, signs out, and the old cookie no longer works', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    expect(await page.textContent('h1')).toBe('Accounts');
    expect(await page.locator('[data-account]').count()).toBe(1);
    expect(await page.getAttribute('[data-account]', 'data-account')).toBe(f.granted);
    const cookie = (await b.context.cookies()).find((c) => c.name === 'tl_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    await page.screenshot({ path: path.join(artifacts, 'accounts.png'), fullPage: true });

    await page.click('text=Sign out');
    await expect.poll(() => page.url()).toContain('/login');
    expect(await page.textContent('body')).toContain('You have signed out.');
    // The revoked token is refused even if replayed.
    const replay = await fetch(`${f.portal.url}/accounts`, { headers: { cookie: `tl_session=${cookie.value}` }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/login?ended');
    await page.close();
  });

  it('a wrong password is refused with one message for every cause, and counted', async () => {
    const page = await b.newPage();
    await signIn(page, { username: f.accountant.username, password: 'not the password' });
    expect(await page.textContent('[role=alert]')).toBe('Wrong user name or password.');
    expect((await b.context.cookies()).some((c) => c.name === 'tl_session')).toBe(false);
    await signIn(page, { username: 'nobody-here', password: 'not the password' });
    expect(await page.textContent('[role=alert]')).toBe('Wrong user name or password.');
    const { rows } = await f.pool.query('SELECT username FROM portal_login_failures ORDER BY id');
    expect(rows.map((r) => r.username)).toEqual(['anna', 'nobody-here']);
    await page.close();
  });

  it('locks a user out after repeated failures, even with the right password, until the window passes', async () => {
    const page = await b.newPage();
    for (let i = 0; i < 3; i++) await signIn(page, { username: f.accountant.username, password: `wrong ${i}` });
    await signIn(page, f.accountant);
    expect(await page.textContent('[role=alert]')).toMatch(/^Too many failed sign-ins for this user\. Try again in 15 minutes\.$/);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.screenshot({ path: path.join(artifacts, 'login-locked.png') });
    f.clock.offsetMs = 16 * 60_000;
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    await page.close();
  });
});

describe('an accountant sees only their accounts', () => {
  it('refuses another account named in the URL, the form, a download or the chart data, and logs each refusal', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const { from, to } = wholeHistory(f);
    const before = Number((await f.pool.query('SELECT count(*) FROM portal_access_denied')).rows[0].count);

    const viaUrl = await page.goto(`${f.portal.url}/reports?account=${f.other}&format=native&period=range&from=${from}&to=${to}`);
    expect(viaUrl!.status()).toBe(404);
    expect(await page.textContent('main')).not.toContain(f.other);

    // Edit the form's account option in the page, as a curious user with dev tools would.
    await page.goto(`${f.portal.url}/reports?account=${f.granted}`);
    // (Page code is passed as text: the project's TypeScript has no DOM types.)
    await page.evaluate(`document.querySelector('select[name=account] option').value = ${JSON.stringify(f.other)}`);
    const [viaForm] = await Promise.all([page.waitForResponse((r) => r.url().includes('/reports?')), page.click('button:has-text("Preview")')]);
    expect(viaForm.status()).toBe(404);

    const download = await postForm(page, `${f.portal.url}/download/file`, Object.fromEntries(new URLSearchParams(`account=${f.other}&format=native&period=range&from=${from}&to=${to}`)));
    expect(download.status()).toBe(404);
    const everyAccount = await postForm(page, `${f.portal.url}/download/zip`, Object.fromEntries(new URLSearchParams(`account=&format=native&period=range&from=${from}&to=${to}`)));
    expect(everyAccount.status()).toBe(403);
    const chart = await page.request.get(`${f.portal.url}/charts/data?account=${f.other}&year=2025&tz=UTC`);
    expect(chart.status()).toBe(404);

    const { rows } = await f.pool.query('SELECT username, account_uid, status, path FROM portal_access_denied ORDER BY id OFFSET $1', [before]);
    expect(rows).toEqual([
      { username: 'anna', account_uid: f.other, status: 404, path: '/reports' },
      { username: 'anna', account_uid: f.other, status: 404, path: '/reports' },
      { username: 'anna', account_uid: f.other, status: 404, path: '/download/file' },
      { username: 'anna', account_uid: '', status: 403, path: '/download/zip' },
      { username: 'anna', account_uid: f.other, status: 404, path: '/charts/data' },
    ]);
    expect(f.logLines.filter((l) => l.includes('"portal-access-denied"')).length).toBeGreaterThanOrEqual(5);
    await page.close();
  });
});

describe('cross-site requests', () => {
  let evil: Server;
  let evilUrl: string;
  beforeAll(async () => {
    // Another site (localhost is not the same site as 127.0.0.1) with a form that posts to the portal.
    evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form id="f" method="post" action="${f.portal.url}/logout"><input name="_csrf" value="guess"></form>
        <form id="g" method="post" action="${f.portal.url}/login"><input name="username" value="${f.accountant.username}"><input name="password" value="x"></form>
        <button id="go" onclick="document.getElementById('f').submit()">go</button><button id="go2" onclick="document.getElementById('g').submit()">go2</button>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
  });
  // Chromium keeps its keep-alive connection open until the browser closes (after this hook):
  // close it here, or close() waits for it (102 s on a busy machine).
  afterAll(() => new Promise<void>((resolve) => { evil.closeAllConnections(); evil.close(() => resolve()); }));

  it('a cross-site POST does not sign the user out, and a POST with the cookie but another Origin gets 403', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const attacker = await b.newPage();
    await attacker.goto(evilUrl);
    const [response] = await Promise.all([attacker.waitForResponse((r) => r.url().endsWith('/logout')), attacker.click('#go')]);
    expect([401, 403]).toContain(response.status());
    await attacker.goto(evilUrl); // the first form navigated away
    const [login] = await Promise.all([attacker.waitForResponse((r) => r.url().endsWith('/login')), attacker.click('#go2')]);
    expect(login.status()).toBe(403);
    // Still signed in.
    const again = await page.goto(`${f.portal.url}/accounts`);
    expect(again!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/accounts');

    // Even a request that carries the cookie (a browser without SameSite) is refused by Origin and token.
    const token = (await b.context.cookies()).find((c) => c.name === 'tl_session')!.value;
    const forged = await fetch(`${f.portal.url}/logout`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `tl_session=${token}`, origin: evilUrl.slice(0, -1), 'content-type': 'application/x-www-form-urlencoded' }, body: '_csrf=guess',
    });
    expect(forged.status).toBe(403);
    const noToken = await fetch(`${f.portal.url}/logout`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `tl_session=${token}`, origin: f.portal.url, 'content-type': 'application/x-www-form-urlencoded' }, body: '_csrf=guess',
    });
    expect(noToken.status).toBe(403);
    expect((await page.goto(`${f.portal.url}/accounts`))!.status()).toBe(200);
    await attacker.close();
    await page.close();
  });
});

describe('reports', () => {
  it('previews the first rows, and a download is byte for byte the file `tradeledger report` writes; the audit has its SHA-256', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const { from, to } = wholeHistory(f);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}&format=native&period=range&from=${from}&to=${to}&tz=Asia/Tokyo&file=ledger.csv`);
    const header = await page.locator('#preview thead th').allTextContents();
    expect(header.slice(0, 3)).toEqual(['time_utc', 'time_local', 'account_uid']);
    expect(await page.locator('#preview tbody tr').count()).toBe(20);
    await page.screenshot({ path: path.join(artifacts, 'reports-preview.png'), fullPage: true });
    // htmx (from /assets, under the CSP) swaps the preview in place when another file is picked.
    const pageUrl = page.url();
    await page.selectOption('#preview select[name=file]', 'fees.csv');
    await expect.poll(() => page.locator('#preview thead th').allTextContents()).toContain('paid');
    // The select was swapped in with the preview: picking another file before htmx wired it up
    // would send no request.
    await htmxSettled(page);
    await page.selectOption('#preview select[name=file]', 'ledger.csv');
    await expect.poll(() => page.locator('#preview thead th').allTextContents()).toContain('amount');
    expect(page.url()).toBe(pageUrl);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-file')]);
    expect(download.suggestedFilename()).toBe(`tradeledger_${f.granted}_${from}_${to}_native_ledger.csv`);
    const downloaded = await readFile((await download.path())!);

    const out = path.join(b.scratch, 'cli');
    const cli = await runCli(['report', '--from', from, '--to', to, '--tz', 'Asia/Tokyo', '--account', f.granted, '--format', 'native', '--out', out],
      { DATABASE_URL: f.fresh.url });
    expect(cli.stderr).not.toContain('error');
    expect(cli.code).toBe(0);
    const fromCli = await readFile(path.join(out, 'ledger.csv'));
    expect(downloaded.length).toBeGreaterThan(1000);
    expect(downloaded.equals(fromCli)).toBe(true);

    // The preview's rows are the file's first rows.
    const firstCell = await page.locator('#preview tbody tr').first().locator('td').first().textContent();
    expect(fromCli.toString('utf8').split('\n')[1]!.startsWith(`${firstCell},`)).toBe(true);

    await expect.poll(async () => (await f.pool.query(`SELECT count(*)::int AS n FROM portal_downloads WHERE file = 'ledger.csv'`)).rows[0].n).toBe(1);
    const audit = (await f.pool.query(`SELECT username, account_uid, format, tz, bytes, sha256, complete FROM portal_downloads WHERE file = 'ledger.csv'`)).rows[0];
    expect(audit).toEqual({
      username: 'anna', account_uid: f.granted, format: 'native', tz: 'Asia/Tokyo', bytes: String(fromCli.length),
      sha256: createHash('sha256').update(fromCli).digest('hex'), complete: true,
    });
    await page.close();
  });

  it('the zip holds the report folder with every CSV and the manifest, equal to the CLI\'s apart from the time stamp', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const { from, to } = wholeHistory(f);
    await page.goto(`${f.portal.url}/reports?account=${f.granted}&format=native&period=range&from=${from}&to=${to}&tz=UTC`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-zip')]);
    const zipPath = path.join(b.scratch, 'report.zip');
    await download.saveAs(zipPath);
    const unpacked = path.join(b.scratch, 'unzipped');
    execFileSync('unzip', ['-q', '-o', zipPath, '-d', unpacked]);
    const folder = path.join(unpacked, `${from}_${to}`, 'native');
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((x: { file: string }) => x.file)).toEqual(['ledger.csv', 'trades.csv', 'margin-records.csv', 'futures-pnl.csv',
      'deposits-withdrawals.csv', 'transfers.csv', 'fees.csv', 'balances.csv', 'reconciliation.csv', 'data-quality.csv', 'valued-ledger.csv',
      'corrections.csv']);
    expect(manifest.parameters.fiat).toBe('USD');
    const listing = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listing).toEqual([...manifest.files.map((x: { file: string }) => `${from}_${to}/native/${x.file}`), `${from}_${to}/native/manifest.json`].sort());

    const out = path.join(b.scratch, 'cli-zip');
    const cli = await runCli(['report', '--from', from, '--to', to, '--tz', 'UTC', '--account', f.granted, '--out', out], { DATABASE_URL: f.fresh.url });
    expect(cli.code).toBe(0);
    const cliManifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'));
    expect({ ...manifest, generatedAt: 'x' }).toEqual({ ...cliManifest, generatedAt: 'x' });
    for (const entry of manifest.files) {
      expect((await readFile(path.join(folder, entry.file))).equals(await readFile(path.join(out, entry.file))), entry.file).toBe(true);
    }
    const audit = (await f.pool.query(`SELECT file, sha256, bytes FROM portal_downloads WHERE file LIKE '%.zip'`)).rows;
    const zipBytes = await readFile(zipPath);
    expect(audit).toEqual([{ file: `tradeledger_${f.granted}_${from}_${to}_native.zip`, sha256: createHash('sha256').update(zipBytes).digest('hex'), bytes: String(zipBytes.length) }]);
    await page.close();
  });

  it('renders the charts (screenshot saved) with scripts from the portal only', async () => {
    const page = await b.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') blocked.push(m.text()); });
    await signIn(page, f.admin);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const year = new Date(f.sandbox.world.now()).getUTCFullYear();
    await page.goto(`${f.portal.url}/charts?account=${f.granted}&year=${year}&tz=UTC`);
    await page.waitForSelector('#charts[data-ready]');
    expect(await page.getAttribute('#charts', 'data-ready')).toBe('true');
    // One chart per measure, every value in one fiat (issue 20 item 7): holdings, PnL, fees.
    expect(await page.locator('#charts canvas').count()).toBe(3);
    expect(await page.locator('#charts h2').first().textContent()).toBe('Holdings at month end, in USD');
    // A drawn canvas holds coloured pixels; an empty one is all transparent.
    const drawn = await page.evaluate(`[...document.querySelectorAll('canvas')].map((c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let coloured = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) coloured++;
      return coloured;
    })`) as number[];
    expect(drawn.length).toBe(3);
    for (const n of drawn) expect(n).toBeGreaterThan(500);
    // Tall enough to read: the holdings chart was 150 px high across a 1,040 px card (its plot ~80 px).
    const heights = await page.locator('#charts canvas').evaluateAll((cs) => cs.map((c) => Math.round(c.getBoundingClientRect().height)));
    expect(heights[0]).toBeGreaterThanOrEqual(340);
    for (const h of heights.slice(1)) expect(h).toBeGreaterThanOrEqual(260);
    await page.screenshot({ path: path.join(artifacts, 'charts.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await page.close();
  });
});

describe('a phone-sized screen', () => {
  // At 390 px the top bar was 679 px wide (its links and the sign-out on one line), so every page
  // scrolled sideways; the sessions table and the charts' two columns (420 px each at least) too.
  it('shows every page within the screen\'s width, its links and Sign out on screen', async () => {
    const page = await b.newPage();
    await signIn(page, f.admin);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const year = new Date(f.sandbox.world.now()).getUTCFullYear();
    const pages = ['/accounts', `/accounts/${f.granted}`, `/accounts/${f.granted}/corrections`, `/reports?account=${f.granted}`,
      `/charts?account=${f.granted}&year=${year}&tz=UTC`, '/sessions'];
    const wider: string[] = [];
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const href of pages) {
        await page.goto(`${f.portal.url}${href}`);
        if (href.startsWith('/charts')) await page.waitForSelector('#charts[data-ready]');
        const doc = await page.locator('html').evaluate((e) => e.scrollWidth);
        if (doc > width) wider.push(`${href} at ${width} px: ${doc} px wide`);
        for (const name of ['Accounts', 'Reports', 'Charts', 'Sessions', 'Sign out']) {
          const box = await page.locator('header.topbar').getByText(name, { exact: true }).boundingBox();
          if (!box || box.x < 0 || box.x + box.width > width) wider.push(`${href} at ${width} px: "${name}" off the screen`);
        }
      }
      await page.goto(`${f.portal.url}/accounts`);
      await page.screenshot({ path: path.join(artifacts, `accounts-${width}px.png`) });
    }
    expect(wider).toEqual([]);
    await page.close();
  });
});

describe('sessions', () => {
  it('a session ends after its idle time, and the next page asks to sign in again', async () => {
    const page = await b.newPage();
    await signIn(page, f.accountant);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    f.clock.offsetMs = 29 * 60_000;
    await page.goto(`${f.portal.url}/accounts`);
    expect(new URL(page.url()).pathname).toBe('/accounts');
    f.clock.offsetMs = 29 * 60_000 + 31 * 60_000; // idle time counts from the last use
    await page.goto(`${f.portal.url}/reports`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.textContent('.notice')).toBe('Your session has ended. Please sign in again.');
    await page.close();
  });
});
