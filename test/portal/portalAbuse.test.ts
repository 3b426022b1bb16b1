import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { ClientRequest, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalFixture, wholeHistory } from './portalFixture.js';
import { browserForTests, submitLogin } from './browser.js';
import { portalApp } from '../../src/portal/portalApp.js';
import { startPortal } from '../../src/portal/startPortal.js';
import type { RunningPortal } from '../../src/portal/startPortal.js';
import { runCli, startCli } from '../support/runCli.js';

// Issue 23 item 4: aborted downloads kept their queries and temporary files; downloads were
// uncapped; GETs started gains runs and wrote audit rows; a NUL byte gave a 500 and no audit.
const f = portalFixture();
const b = browserForTests('tl-portal-abuse-');

/** Signs in over HTTP; the session cookie and the page's CSRF token. */
async function signIn(base: string, who: { username: string; password: string }): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${base}/login`);
  const loginCookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: loginCookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, username: who.username, password: who.password }).toString(),
  });
  expect(res.status).toBe(303);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tl_session='))!.split(';')[0]!;
  const page = await (await fetch(`${base}/accounts`, { headers: { cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
}

interface Pending {
  req: ClientRequest;
  /** The answer's head, once it comes. */
  response: Promise<IncomingMessage>;
  /** Bytes of the body received so far. */
  received(): number;
  /** The whole body, once it ends. */
  body: Promise<Buffer>;
}

/** A download POST over a plain socket the test can cut at any moment. */
function startDownload(base: string, who: { cookie: string; csrf: string }, route: string, fields: Record<string, string>): Pending {
  const body = new URLSearchParams({ ...fields, _csrf: who.csrf }).toString();
  let received = 0;
  let resolveBody!: (b: Buffer) => void;
  const bodyDone = new Promise<Buffer>((resolve) => { resolveBody = resolve; });
  const req = request(`${base}${route}`, {
    method: 'POST', agent: false,
    headers: { cookie: who.cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => { received += d.length; chunks.push(d); });
      res.on('end', () => resolveBody(Buffer.concat(chunks)));
      res.on('error', () => {});
      resolve(res);
    });
    req.on('error', reject);
  });
  response.catch(() => {});
  req.end(body);
  return { req, response, received: () => received, body: bodyDone };
}

/** Holds an ACCESS EXCLUSIVE lock on a table until released: queries that read it wait. */
async function lockTable(table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: f.fresh.url });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return { release: async () => { await client.query('ROLLBACK'); await client.end(); } };
}

/** The portal's download connections now, and how many of them wait for a lock. */
async function downloadBackends(): Promise<{ all: number; waiting: number }> {
  const { rows } = await f.pool.query(
    `SELECT count(*)::int AS all, count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting
     FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'tradeledger-portal-download'`);
  return rows[0];
}

describe('aborted downloads and the download pool', () => {
  let portal: RunningPortal;
  let scratch: string;
  const logLines: string[] = [];
  let who: { cookie: string; csrf: string };
  let report: Record<string, string>;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'tl-portal-scratch-'));
    portal = await startPortal({
      databaseUrl: f.fresh.url, host: '127.0.0.1', port: 0, scratchDir: scratch, downloads: { running: 2, waiting: 1 }, log: (l) => logLines.push(l),
    });
    who = await signIn(portal.url, f.admin);
    const { from, to } = wholeHistory(f);
    report = { account: f.granted, format: 'native', period: 'range', from, to, tz: 'UTC', file: 'ledger.csv' };
  });
  afterAll(async () => {
    await portal?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('a download aborted before its first byte: its query is cancelled and its folder removed while the table it waits for is still locked', async () => {
    const lock = await lockTable('spot_fills');
    try {
      const d = startDownload(portal.url, who, '/download/file', report);
      await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 1, waiting: 1 });
      expect(await readdir(scratch)).toHaveLength(1);
      d.req.destroy();
      // Before the lock goes: only a cancel can end the query now.
      await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 0, waiting: 0 });
      await expect.poll(() => readdir(scratch), { timeout: 60_000 }).toEqual([]);
    } finally {
      await lock.release();
    }
    await expect.poll(() => logLines.some((l) => l.includes('"portal-download-aborted"'))).toBe(true);
  });

  it('a zip aborted mid-file: its query is cancelled and its files removed at once', async () => {
    // ledger.csv (first in the zip) does not read the candles; valued-ledger.csv (last) waits for them.
    const lock = await lockTable('price_candles');
    try {
      const d = startDownload(portal.url, who, '/download/zip', report);
      expect((await d.response).statusCode).toBe(200);
      await expect.poll(() => d.received(), { timeout: 60_000 }).toBeGreaterThan(0);
      await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 1, waiting: 1 });
      d.req.destroy();
      await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 0, waiting: 0 });
      await expect.poll(() => readdir(scratch), { timeout: 60_000 }).toEqual([]);
    } finally {
      await lock.release();
    }
    const audit = await f.pool.query(`SELECT complete FROM portal_downloads WHERE file LIKE '%.zip' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows).toEqual([{ complete: false }]);
  });

  it('a gains download aborted while it computes: both its connections end and nothing of the run stays', async () => {
    const gains = async () => (await f.pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'tradeledger-gains%'`)).rows[0].n as number;
    const runs = async () => (await f.pool.query('SELECT count(*)::int AS n FROM gains_runs')).rows[0].n as number;
    const before = await runs();
    const lock = await lockTable('spot_fills');
    try {
      const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
      const d = startDownload(portal.url, who, '/gains/download/zip', { account: f.granted, rules: 'us', year, fiat: 'USD', tz: 'UTC' });
      await expect.poll(gains, { timeout: 60_000 }).toBe(2);
      expect(await readdir(scratch)).toHaveLength(1);
      d.req.destroy();
      await expect.poll(gains, { timeout: 60_000 }).toBe(0);
      await expect.poll(() => readdir(scratch), { timeout: 60_000 }).toEqual([]);
    } finally {
      await lock.release();
    }
    expect(await runs()).toBe(before);
  });

  it('2 run, 1 waits, the 4th is a 503 with Retry-After; after the lock all three complete, never more than 2 connections', async () => {
    const lock = await lockTable('spot_fills');
    const started: Pending[] = [];
    let most = 0;
    try {
      for (let i = 0; i < 3; i++) started.push(startDownload(portal.url, who, '/download/file', report));
      await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 2, waiting: 2 });
      await expect.poll(() => logLines.filter((l) => l.includes('"portal-download-queued"')).length, { timeout: 60_000 }).toBe(1);
      const refused = startDownload(portal.url, who, '/download/file', report);
      const answer = await refused.response;
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('15');
      expect((await refused.body).toString()).toContain('Try again in 15 seconds');
      most = (await downloadBackends()).all;
    } finally {
      await lock.release();
    }
    const sampler = setInterval(() => { void downloadBackends().then((n) => { most = Math.max(most, n.all); }, () => {}); }, 20);
    try {
      const bodies = await Promise.all(started.map(async (d) => {
        expect((await d.response).statusCode).toBe(200);
        return d.body;
      }));
      expect(bodies[0]!.length).toBeGreaterThan(1000);
      for (const x of bodies) expect(x.equals(bodies[0]!)).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeLessThanOrEqual(2);
    await expect.poll(() => readdir(scratch), { timeout: 60_000 }).toEqual([]);
  });
});

describe('tradeledger serve --downloads 1 --download-queue 0 (a real server process)', () => {
  it('runs one download and answers the next with 503 and Retry-After; a bad count is refused', async () => {
    const bad = await runCli(['serve', '--port', '0', '--downloads', '0'], { DATABASE_URL: f.fresh.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--downloads "0" is not a number from 1 to 9999');
    const { child, done } = startCli(['serve', '--port', '0', '--downloads', '1', '--download-queue', '0'], { DATABASE_URL: f.fresh.url });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d) => { out += String(d); const m = /portal at (http:\/\/\S+)/.exec(out); if (m) resolve(m[1]!); });
        child.once('exit', () => reject(new Error(`serve exited: ${out}`)));
      });
      const who = await signIn(base, f.admin);
      const { from, to } = wholeHistory(f);
      const report = { account: f.granted, format: 'native', period: 'range', from, to, tz: 'UTC', file: 'ledger.csv' };
      const lock = await lockTable('spot_fills');
      let first: Pending;
      try {
        first = startDownload(base, who, '/download/file', report);
        await expect.poll(downloadBackends, { timeout: 60_000 }).toEqual({ all: 1, waiting: 1 });
        const second = startDownload(base, who, '/download/file', report);
        const answer = await second.response;
        expect(answer.statusCode).toBe(503);
        expect(answer.headers['retry-after']).toBe('15');
      } finally {
        await lock.release();
      }
      expect((await first.response).statusCode).toBe(200);
      expect((await first.body).length).toBeGreaterThan(1000);
    } finally {
      child.kill('SIGTERM');
      await done;
    }
  });
});

describe('no GET changes state or starts a computation', () => {
  // Every table's rows, hashed: a GET must leave all of them as they were.
  const snapshot = async (): Promise<Record<string, string>> => {
    const { rows: tables } = await f.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    const out: Record<string, string> = {};
    for (const { tablename } of tables) {
      const { rows } = await f.pool.query(`SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM "${tablename}" t`);
      out[tablename] = rows[0].h;
    }
    return out;
  };

  it('every GET route of the app, with the fields its forms send, leaves every table as it was', async () => {
    const who = await signIn(f.portal.url, f.admin);
    const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
    const fields: Record<string, string> = {
      '/reports': `account=${f.granted}&format=native&year=${year}&tz=UTC`,
      '/reports/preview': `account=${f.granted}&format=native&year=${year}&tz=UTC&file=ledger.csv`,
      '/download/file': `account=${f.granted}&format=native&year=${year}&tz=UTC`,
      '/download/zip': `account=${f.granted}&format=native&year=${year}&tz=UTC`,
      '/gains/download/file': `account=${f.granted}&rules=us&year=${year}&fiat=USD&tz=UTC&file=gains.csv`,
      '/gains/download/zip': `account=${f.granted}&rules=us&year=${year}&fiat=USD&tz=UTC`,
      '/charts': `account=${f.granted}&year=${year}&tz=UTC`,
      '/charts/data': `account=${f.granted}&year=${year}&tz=UTC&fiat=USD`,
    };
    // The routes as the app itself lists them, so a GET route added later is covered too.
    const { app, close } = await portalApp({ databaseUrl: f.fresh.url, log: () => {} });
    const routes = [...new Set(app.routes.filter((r) => r.method === 'GET' && !r.path.includes('*')).map((r) => r.path))];
    await close();
    expect(routes).toEqual(expect.arrayContaining(['/download/file', '/gains/download/zip', '/reports', '/charts/data']));
    const before = await snapshot();
    const statuses: Record<string, number> = {};
    for (const route of routes) {
      const url = route.replace(':uid', f.granted).replace(':name', 'portal.css');
      const query = fields[route] ? `?${fields[route]}` : '';
      const res = await fetch(`${f.portal.url}${url}${query}`, { headers: { cookie: who.cookie }, redirect: 'manual' });
      statuses[route] = res.status;
      await res.arrayBuffer();
    }
    expect(statuses['/download/file']).toBe(405);
    expect(statuses['/gains/download/zip']).toBe(405);
    expect(statuses['/reports']).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  describe('a same-site page\'s <img> tags', () => {
    let evil: Server;
    let evilUrl: string;
    beforeAll(async () => {
      // Another port of the same host is the same site: the SameSite=Strict cookie goes along.
      evil = createServer((_req, res) => {
        const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
        res.setHeader('content-type', 'text/html');
        res.end(`<img id="a" src="${f.portal.url}/gains/download/zip?account=${f.granted}&rules=us&year=${year}&fiat=USD&tz=UTC">
          <img id="b" src="${f.portal.url}/download/file?account=${f.granted}&format=native&year=${year}&tz=UTC">`);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => { evil.closeAllConnections(); evil.close(() => resolve()); }));

    it('start no gains run and write no audit row, while the page\'s own buttons still download (POST)', async () => {
      const page = await b.newPage();
      await submitLogin(page, f.portal.url, f.accountant);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
      const count = async (table: string) => (await f.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
      const runs = await count('gains_runs');
      const downloads = await count('portal_downloads');
      const evilPage = await b.newPage();
      const sent = new Set<string>();
      // The browser makes both requests (the cookie goes along: same site); it then hides the answers
      // from the page (Cross-Origin-Resource-Policy), but the server has done whatever the GET does.
      evilPage.on('requestfinished', (r) => { if (r.url().includes('/download/')) sent.add(new URL(r.url()).pathname); });
      evilPage.on('requestfailed', (r) => { if (r.url().includes('/download/')) sent.add(new URL(r.url()).pathname); });
      await evilPage.goto(evilUrl);
      await expect.poll(() => sent.size).toBe(2);
      const refusals = f.logLines.filter((l) => l.includes('"portal-get-refused"')).map((l) => JSON.parse(l) as { path: string; user: string });
      expect(refusals.filter((r) => r.user === 'anna').map((r) => r.path).sort()).toEqual(['/download/file', '/gains/download/zip']);
      expect(await count('gains_runs')).toBe(runs);
      expect(await count('portal_downloads')).toBe(downloads);

      const year = String(new Date(f.sandbox.world.now()).getUTCFullYear() - 1);
      await page.goto(`${f.portal.url}/reports?account=${f.granted}&year=${year}`);
      await page.selectOption('#gains-form select[name=rules]', 'fifo');
      await page.fill('#gains-form input[name=tz]', 'UTC');
      await page.keyboard.press('Escape');
      const [zip] = await Promise.all([page.waitForEvent('download'), page.click('#gains-zip')]);
      expect(zip.suggestedFilename()).toBe(`tradeledger_${f.granted}_gains_${year}-fifo-USD.zip`);
      expect(await count('gains_runs')).toBe(runs + 1);
      const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#download-file')]);
      expect(csv.suggestedFilename()).toMatch(/_native_ledger\.csv$/);
      // The token rode on the pressed button only: the Preview's GET puts none in the address.
      await page.click('button:has-text("Preview")');
      await expect.poll(() => new URL(page.url()).pathname).toBe('/reports');
      expect(page.url()).not.toContain('_csrf');
      await evilPage.close();
      await page.close();
    });
  });
});

describe('bad parameters are 400s, and audited', () => {
  it('a NUL byte in a field or the path, an unknown or repeated field: 400, a row in portal_access_denied with the reason', async () => {
    const who = await signIn(f.portal.url, f.accountant);
    const before = (await f.pool.query('SELECT coalesce(max(id), 0) AS id FROM portal_access_denied')).rows[0].id;
    const get = (p: string, cookie = who.cookie) => fetch(`${f.portal.url}${p}`, { headers: { cookie }, redirect: 'manual' });
    const post = (p: string, body: string) => fetch(`${f.portal.url}${p}`, {
      method: 'POST', redirect: 'manual', headers: { cookie: who.cookie, origin: f.portal.url, 'content-type': 'application/x-www-form-urlencoded' }, body,
    });
    const answers = [
      await get(`/reports?account=${f.granted}%00&format=native`),
      await get(`/charts/data?account=%00${f.granted}&year=2025&tz=UTC`),
      await get(`/accounts/${f.granted}%00`),
      await get(`/accounts?debug=1`),
      await get(`/reports?account=${f.granted}&account=${f.other}`),
      await post('/download/file', `_csrf=${who.csrf}&account=${f.granted}%00&format=native`),
      await post('/gains/download/zip', `_csrf=${who.csrf}&account=${f.granted}&rules=us&year=2025&fiat=USD&cost_basis=zero`),
      await get('/login?next=https://example.com', ''),
    ];
    const statuses = answers.map((r) => r.status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400]);
    expect(await answers[0]!.text()).toContain('This request was refused: NUL byte in query field &quot;account&quot;.');
    const { rows } = await f.pool.query(
      'SELECT username, method, path, account_uid, status, reason FROM portal_access_denied WHERE id > $1 ORDER BY id', [before]);
    expect(rows).toEqual([
      { username: 'anna', method: 'GET', path: '/reports', account_uid: `${f.granted}\\0`, status: 400, reason: 'NUL byte in query field "account"' },
      { username: 'anna', method: 'GET', path: '/charts/data', account_uid: `\\0${f.granted}`, status: 400, reason: 'NUL byte in query field "account"' },
      { username: 'anna', method: 'GET', path: `/accounts/${f.granted}\\0`, account_uid: null, status: 400, reason: 'NUL byte in the path (uid)' },
      { username: 'anna', method: 'GET', path: '/accounts', account_uid: null, status: 400, reason: 'unknown query field "debug"' },
      { username: 'anna', method: 'GET', path: '/reports', account_uid: f.granted, status: 400, reason: 'query field "account" sent 2 times' },
      { username: 'anna', method: 'POST', path: '/download/file', account_uid: `${f.granted}\\0`, status: 400, reason: 'NUL byte in form field "account"' },
      { username: 'anna', method: 'POST', path: '/gains/download/zip', account_uid: f.granted, status: 400, reason: 'unknown form field "cost_basis"' },
      { username: null, method: 'GET', path: '/login', account_uid: null, status: 400, reason: 'unknown query field "next"' },
    ]);
    expect(f.logLines.filter((l) => l.includes('"portal-access-denied"') && l.includes('"status":400')).length).toBeGreaterThanOrEqual(8);
    // The portal still answers, and the accountant's own pages work.
    expect((await get('/accounts')).status).toBe(200);
  });
});
