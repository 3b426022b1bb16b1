import type { Context } from 'hono';
import { gainsDownloadRequest, NOT_READY_MARK, prepareGainsFile, prepareGainsZip } from '../gainsDownload.js';
import type { GainsDownloadRequest } from '../gainsDownload.js';
import { gainsLabel, gainsPeriod } from '../../gains/gainsRequest.js';
import { gainsFields } from '../requestParameters.js';
import type { Downloads } from './downloads.js';
import { configErrorPage, fields } from './shared.js';
import type { Env, Guards, PortalDeps, PortalHono } from './shared.js';

/**
 * Gains downloads: `tradeledger gains`' own runGains (gainsDownload.ts), for one account the user
 * may see (admins: or all), in a download slot; the form is on the Reports page.
 *
 * @example
 * gainsRoutes(app, deps, guards(deps), downloads(deps));
 */
export function gainsRoutes(app: PortalHono, { databaseUrl, reportsDir }: PortalDeps, { only, allowedAccount }: Guards, { inSlot, postOnly }: Downloads): void {
  const gainsDownload = async (c: Context<Env>, kind: 'file' | 'zip') => {
    const q = await fields(c);
    const { refused } = await allowedAccount(c, q.account ?? '');
    if (refused) return refused;
    let request: GainsDownloadRequest;
    try {
      request = gainsDownloadRequest(q);
    } catch (err) {
      return configErrorPage(c, err);
    }
    const subject = { account: request.account, format: `gains-${request.rules}-${request.fiat}`, period: { ...gainsPeriod(request), tz: request.tz } };
    return inSlot(c, (run) => kind === 'file' ? prepareGainsFile(databaseUrl, request, reportsDir, run) : prepareGainsZip(databaseUrl, request, reportsDir, run),
      // The audit names a single file by its folder path, marked as its saved name is when the run is not ready to file.
      () => subject, (prepared) => kind === 'file'
        ? `${gainsLabel(request)}${prepared.fileName.includes(NOT_READY_MARK) ? `_${NOT_READY_MARK}` : ''}/${request.file}` : prepared.fileName);
  };

  app.get('/gains/download/file', postOnly);
  app.get('/gains/download/zip', postOnly);
  app.post('/gains/download/file', only([...gainsFields, '_csrf']), (c) => gainsDownload(c, 'file'));
  app.post('/gains/download/zip', only([...gainsFields, '_csrf']), (c) => gainsDownload(c, 'zip'));
}
