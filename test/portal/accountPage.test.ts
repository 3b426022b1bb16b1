import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { startPortal, type RunningPortal } from '../../src/portal/startPortal.js';
import { addUser } from '../../src/portal/portalUsers.js';
import { browserForTests, portalArtifacts as artifacts, submitLogin } from './browser.js';
import { reconcileFixtureSql } from '../reports/reconcileFixture.js';

// The portal's account page (/accounts/:uid) and charts over the hand-made reconcile fixture
// (test/reports/reconcileFixture.ts): M matches, O holds an opening balance, U lost a deposit.
// Screenshots go to .tradeledger/test-artifacts/portal/ (ignored by git).

let fresh: FreshDatabase;
let pool: pg.Pool;
let portal: RunningPortal;
const admin = { username: 'root-admin', password: 'admin password 1' };
const b = browserForTests('tl-portal-account-');

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(`INSERT INTO accounts (uid, name, kind) VALUES ('M', 'Matching', 'main'), ('O', 'Opening', 'sub'), ('U', 'Unexplained', 'sub');`).execute(fresh.db);
  await sql.raw(reconcileFixtureSql).execute(fresh.db);
  await sql.raw(`
    INSERT INTO sync_state (account_uid, stream, watermark, status) VALUES
      ('M', 'spotFills', '2025-03-01Z', 'idle'), ('O', 'spotFills', '2025-03-01Z', 'idle'),
      ('U', 'spotFills', '2025-03-01Z', 'idle'), ('U', 'spotOrders', '2025-03-01Z', 'idle');
    INSERT INTO history_gaps (account_uid, stream, gap_from, gap_to, reason) VALUES
      ('U', 'spotOrders', '2024-06-01Z', '2024-12-01Z', 'X1 spotHistoryOrders serves only the last 90 days');
    INSERT INTO price_symbols (coin, symbol, quote_coin) VALUES ('BTC', 'BTCUSDT', 'USDT');
    INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, raw) VALUES
      ('BTCUSDT', '1h', '2025-02-01 10:00Z', 40000, 40000, 40000, 40000, '{}'),
      ('BTCUSDT', '1h', '2025-03-31 09:00Z', 50000, 50000, 50000, 50000, '{}');`).execute(fresh.db);
  pool = new pg.Pool({ connectionString: fresh.url, max: 3 });
  pool.on('error', () => {});
  await addUser(pool, { ...admin, role: 'admin', accounts: [] });
  portal = await startPortal({ databaseUrl: fresh.url, host: '127.0.0.1', port: 0, log: () => {} });
}, 120_000);
afterAll(async () => {
  await portal?.close();
  await pool?.end();
  await fresh?.drop();
});

describe('the account page', () => {
  it('shows each balance against the exchange, classed and explained, red warnings first (screenshots saved)', async () => {
    const page = await b.newPage();
    await submitLogin(page, portal.url, admin);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    // The accounts page: U is red for its unexplained balance, its order gap (fills cover it) is only info.
    const u = page.locator('[data-account=U]');
    expect(await u.getAttribute('class')).toContain('has-error');
    expect(await u.locator('li').first().getAttribute('data-code')).toBe('unexplained_balance');
    expect(await u.locator('li[data-code=order_gap_covered]').getAttribute('data-severity')).toBe('info');
    expect(await page.locator('[data-account=M] .badge').textContent()).toBe('Complete');
    expect(await page.locator('[data-account=O]').getAttribute('class')).toContain('has-warn');
    await page.screenshot({ path: path.join(artifacts, 'accounts-ranked.png'), fullPage: true });

    await u.locator('a.button', { hasText: 'Balances' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts/U');
    const rows = page.locator('#reconciliation tbody tr');
    expect(await rows.count()).toBe(2);
    const spot = page.locator('tr[data-wallet=spot][data-coin=USDT]');
    expect(await spot.getAttribute('data-status')).toBe('unexplained');
    expect((await spot.locator('td').allTextContents()).slice(0, 6)).toEqual(['spot', 'USDT', '130', '80', '50', 'Unexplained']);
    expect(await spot.locator('td.why').textContent()).toContain('the running balances part at spot_bills 302 (deposit, 50 USDT, 2025-02-02 11:30:00.000Z)');
    expect(await page.locator('tr[data-wallet=crossed_margin]').getAttribute('data-status')).toBe('no_snapshot');
    expect(await page.locator('#account-warnings li').first().getAttribute('data-severity')).toBe('red');
    expect(await page.locator('#unsynced-sub-accounts').count()).toBe(0);
    // U lists a sub-account this database does not sync: its transfers are in its own history
    // only (E19), so the page says so, as `tradeledger reconcile` does; once synced, it does not.
    await sql.raw(`INSERT INTO sub_account_snapshots (snapshot_at, main_uid, sub_account_uid, raw) VALUES ('2025-03-01Z', 'U', 'U1', '{}')`).execute(fresh.db);
    try {
      await page.reload();
      expect(await page.locator('#unsynced-sub-accounts').textContent()).toMatch(/^1 unexplained balance\(s\) here may come from this account's sub-account\(s\) U1, which are not synced/);
      await page.screenshot({ path: path.join(artifacts, 'account-unexplained.png'), fullPage: true });
      await sql.raw(`INSERT INTO accounts (uid, name, kind, parent_uid) VALUES ('U1', 'u1', 'sub', 'U')`).execute(fresh.db);
      await page.reload();
      expect(await page.locator('#unsynced-sub-accounts').count()).toBe(0);
    } finally {
      await sql.raw(`DELETE FROM sub_account_snapshots; DELETE FROM accounts WHERE uid = 'U1'`).execute(fresh.db);
    }

    await page.goto(`${portal.url}/accounts/O`);
    const btc = page.locator('tr[data-wallet=spot][data-coin=BTC]');
    expect((await btc.locator('td').allTextContents()).slice(0, 6)).toEqual(['spot', 'BTC', '2.5', '0.5', '2', 'Opening balance']);
    expect(await btc.locator('td.why').textContent()).toContain('2 BTC was held before the first record read');
    expect(await page.locator('#account-warnings li[data-code=opening_balance]').getAttribute('data-severity')).toBe('amber');
    // Its history may be there to read: a later sync --since reads it (a backfill) before any cost is typed in.
    expect(await page.locator('#account-warnings li[data-code=opening_balance]').textContent()).toContain('tradeledger sync --since an earlier date reads it');
    await page.screenshot({ path: path.join(artifacts, 'account-opening.png'), fullPage: true });

    // Another account's page is refused like any other unknown account.
    const missing = await page.goto(`${portal.url}/accounts/nobody`);
    expect(missing!.status()).toBe(404);
    await page.close();
  });
});

describe('charts', () => {
  it('values every series in the chosen fiat, one axis per chart, no future months (screenshot saved)', async () => {
    const page = await b.newPage();
    await submitLogin(page, portal.url, admin);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/accounts');
    const data = await (await page.request.get(`${portal.url}/charts/data?account=O&year=2025&tz=UTC&fiat=USD`)).json() as { fiat: string; months: string[]; balances: { coin: string; values: string[] }[] };
    expect(data.fiat).toBe('USD');
    expect(data.months).toHaveLength(12);
    // O's 0.5 BTC (the ledger's; its 2 BTC opening balance is not imported) at February's last
    // candle (40000), at March's (50000); USDT at its peg.
    const btc = data.balances.find((s) => s.coin === 'BTC')!;
    expect(btc.values.slice(0, 4)).toEqual(['0.00', '20000.00', '25000.00', '25000.00']);
    expect(data.balances.find((s) => s.coin === 'USDT')!.values[1]).toBe('29970.00');
    // The current year ends with the current month: the month of the portal's now(), read during
    // the request, which is the month before it or, across a month's end, the one after it (in
    // the year asked for: December when New Year came during the request).
    const before = new Date();
    const year = before.getUTCFullYear();
    const thisYear = await (await page.request.get(`${portal.url}/charts/data?account=O&year=${year}&tz=UTC`)).json() as { months: string[] };
    const after = new Date();
    const monthIn = (d: Date) => (d.getUTCFullYear() === year ? d.toISOString().slice(0, 7) : `${year}-12`);
    expect([monthIn(before), monthIn(after)]).toContain(thisYear.months.at(-1));
    expect((await page.request.get(`${portal.url}/charts/data?account=O&year=2025&tz=UTC&fiat=bitcoin`)).status()).toBe(400);

    await page.goto(`${portal.url}/charts?account=O&year=2025&tz=UTC&fiat=USD`);
    await page.waitForSelector('#charts[data-ready]');
    expect(await page.getAttribute('#charts', 'data-ready')).toBe('true');
    expect(await page.locator('#charts canvas').count()).toBe(3);
    expect(await page.locator('#charts h2').allTextContents()).toEqual(['Holdings at month end, in USD', 'Realized PnL per month, in USD', 'Fees paid per month, in USD']);
    // Each chart has one y axis, titled with the fiat.
    const axes = await page.evaluate(`[...document.querySelectorAll('#charts canvas')].map((c) => {
      const chart = Chart.getChart(c);
      return Object.keys(chart.scales).filter((k) => k.startsWith('y')).map((k) => chart.scales[k].options.title.text);
    })`) as string[][];
    expect(axes).toEqual([['USD'], ['USD'], ['USD']]);
    await page.screenshot({ path: path.join(artifacts, 'charts-fiat.png'), fullPage: true });
    await page.close();
  });
});
