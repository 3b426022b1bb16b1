/** @jsxImportSource hono/jsx */
import { TradeledgerError } from '../../errors.js';
import { reportPeriod } from '../../reports/reportPeriod.js';
import { visibleAccounts } from '../accountAccess.js';
import { chartData } from '../chartData.js';
import { chartFields } from '../requestParameters.js';
import { ChartsPage } from '../views/chartsPage.js';
import type { Guards, PortalDeps, PortalHono } from './shared.js';
import { utcYear } from '../../normalize/calendarDate.js';
import { isFiatCode } from '../../imports/currencyCodes.js';

/**
 * The Charts page and the JSON it draws from (chartData.ts). The data route answers in JSON,
 * refusals and bad periods included.
 *
 * @example
 * chartRoutes(app, deps, guards(deps));
 */
export function chartRoutes(app: PortalHono, { pool, now }: PortalDeps, { only, allowedAccount }: Guards): void {
  app.get('/charts', only(chartFields), async (c) => {
    const user = c.get('session').user;
    const pre = await visibleAccounts(pool, user);
    const account = c.req.query('account') ?? (user.role === 'admin' ? '' : pre[0]?.uid ?? '');
    const { accounts, refused } = await allowedAccount(c, account, pre);
    if (refused) return refused;
    const year = c.req.query('year') ?? String(utcYear(now()));
    const tz = c.req.query('tz') ?? 'UTC';
    const fiat = (c.req.query('fiat') ?? 'USD').toUpperCase();
    const dataUrl = `/charts/data?${new URLSearchParams({ account, year, tz, fiat })}`;
    return c.html(<ChartsPage user={user} csrf={c.get('csrf')} accounts={accounts} account={account} year={year} tz={tz} fiat={fiat} dataUrl={dataUrl} />);
  });

  app.get('/charts/data', only(chartFields), async (c) => {
    const account = c.req.query('account') ?? '';
    const { refused } = await allowedAccount(c, account);
    if (refused) return c.json({ error: 'not allowed' }, refused.status as 403 | 404);
    try {
      const period = reportPeriod({ year: c.req.query('year') ?? '', tz: c.req.query('tz') ?? 'UTC' }, 'form');
      const fiat = (c.req.query('fiat') ?? 'USD').toUpperCase();
      if (!isFiatCode(fiat)) return c.json({ error: `'${fiat}' is not an ISO 4217 currency code`, hint: 'Use an ISO 4217 code: USD, EUR, GBP ...' }, 400);
      return c.json(await chartData(pool, period, account, fiat));
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') return c.json({ error: err.message, hint: err.hint }, 400);
      throw err;
    }
  });
}
