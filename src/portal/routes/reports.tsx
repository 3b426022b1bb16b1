/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import { TradeledgerError } from '../../errors.js';
import { reportFormats } from '../../reports/reportFormats.js';
import type { ReportFormat } from '../../reports/reportFormats.js';
import { visibleAccounts } from '../accountAccess.js';
import type { VisibleAccount } from '../accountAccess.js';
import { healthOf } from '../accountHealth.js';
import { rankedWarnings } from '../accountWarnings.js';
import type { AccountWarning } from '../accountWarnings.js';
import { missingValueRates, noValuesMark, prepareCsv, prepareZip, withMissingRates } from '../reportDownload.js';
import { reportPreview } from '../reportPreview.js';
import { checkboxOn, reportRequest } from '../reportRequest.js';
import type { ReportRequest } from '../reportRequest.js';
import { reportFields } from '../requestParameters.js';
import { PreviewPanel, ReportsPage } from '../views/reportsPage.js';
import type { PreviewState, ReportFormValues } from '../views/reportsPage.js';
import type { Downloads } from './downloads.js';
import { configErrorPage, fields } from './shared.js';
import type { Env, Guards, PortalDeps, PortalHono } from './shared.js';
import { utcYear } from '../../normalize/calendarDate.js';
import { lastDayLeftOut } from '../../reports/reportPeriod.js';
import { valueCurrencies } from '../../gains/incompleteFigures.js';

/**
 * The Reports page, its preview (htmx) and the report downloads (one CSV or the format's zip),
 * which run the CLI's report runner (reportDownload.ts) in a download slot.
 *
 * @example
 * reportRoutes(app, deps, guards(deps), downloads(deps));
 */
export function reportRoutes(app: PortalHono, deps: PortalDeps, { only, allowedAccount }: Guards, { inSlot, postOnly }: Downloads): void {
  const { pool, now, health, reportsDir, previewRows, databaseUrl } = deps;

  const formValues = (c: Context<Env>, accounts: VisibleAccount[], q: Record<string, string | undefined> = c.req.query()): ReportFormValues => {
    const user = c.get('session').user;
    const year = q.year ?? String(utcYear(now()) - 1);
    const format = (reportFormats as readonly string[]).includes(q.format ?? '') ? q.format as ReportFormat : 'native';
    return {
      account: q.account ?? (user.role === 'admin' ? '' : accounts[0]?.uid ?? ''),
      period: q.period === 'range' ? 'range' : 'year', year, from: q.from ?? `${year}-01-01`, to: q.to ?? `${Number(year) + 1}-01-01`,
      tz: q.tz ?? 'UTC', format, file: q.file ?? '', fiat: q.fiat ?? 'USD', includeDemo: checkboxOn(q.include_demo),
    };
  };
  const toRequest = (v: ReportFormValues): ReportRequest => reportRequest({
    period: v.period, year: v.period === 'year' ? v.year : undefined, from: v.from, to: v.to, tz: v.tz, format: v.format, account: v.account, file: v.file || undefined, fiat: v.fiat, include_demo: v.includeDemo ? '1' : undefined,
  });
  const previewOf = async (v: ReportFormValues): Promise<PreviewState> => {
    try {
      const request = toRequest(v);
      return { kind: 'rows', preview: await reportPreview(pool, request, previewRows, reportsDir), values: { ...v, file: request.file }, endNote: lastDayLeftOut(request.period, 'form') };
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') return { kind: 'error', message: err.message, hint: err.hint };
      throw err;
    }
  };
  // What a report of this account would carry, most serious for a tax figure first (accountWarnings.ts).
  const warningsFor = async (account: string): Promise<AccountWarning[]> => {
    if (account === '') return [];
    return rankedWarnings(healthOf(await health.read(), account), { imported: false })
      .filter((w) => w.severity !== 'info' && w.code !== 'never_synced');
  };

  app.get('/reports', only(reportFields), async (c) => {
    const user = c.get('session').user;
    const pre = await visibleAccounts(pool, user);
    const values = formValues(c, pre);
    const { accounts, refused } = await allowedAccount(c, values.account, pre);
    if (refused) return refused;
    const preview = c.req.query('format') !== undefined ? await previewOf(values) : { kind: 'none' as const };
    return c.html(<ReportsPage user={user} csrf={c.get('csrf')} accounts={accounts} values={values} preview={preview} warnings={await warningsFor(values.account)} valueCurrencies={await valueCurrencies(pool)} />);
  });

  app.get('/reports/preview', only(reportFields), async (c) => {
    const pre = await visibleAccounts(pool, c.get('session').user);
    const values = formValues(c, pre);
    const { refused } = await allowedAccount(c, values.account, pre);
    if (refused) return refused;
    const state = await previewOf(values);
    return c.html(<PreviewPanel state={state} />, state.kind === 'error' ? 400 : 200);
  });

  const download = async (c: Context<Env>, kind: 'file' | 'zip') => {
    const values = formValues(c, [], await fields(c));
    const { refused } = await allowedAccount(c, values.account);
    if (refused) return refused;
    let request: ReportRequest;
    try {
      request = toRequest(values);
    } catch (err) {
      return configErrorPage(c, err);
    }
    // A fiat without its ECB rates leaves the values empty: the saved name and a header say so.
    const file = kind === 'file' ? request.file : 'zip';
    const missing = await missingValueRates(pool, request, file);
    return inSlot(c, async (run) => withMissingRates(await (kind === 'file' ? prepareCsv(databaseUrl, request, reportsDir, run) : prepareZip(databaseUrl, request, reportsDir, run)), request, file, missing),
      () => request, (prepared) => kind !== 'file' ? prepared.fileName : missing.length > 0 ? `${noValuesMark(request.fiat)}/${request.file}` : request.file);
  };

  app.get('/download/file', postOnly);
  app.get('/download/zip', postOnly);
  app.post('/download/file', only([...reportFields, '_csrf']), (c) => download(c, 'file'));
  app.post('/download/zip', only([...reportFields, '_csrf']), (c) => download(c, 'zip'));
}
