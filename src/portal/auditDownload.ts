import type pg from 'pg';
import { databaseOn } from '../db/databaseOn.js';
import type { PortalUser } from './portalUser.js';

/** What was downloaded: a report's account, format and period; for gains, format is 'gains-<rules>-<fiat>' and the period the tax year. */
export interface DownloadSubject {
  account: string;
  format: string;
  period: { from: string; to: string; tz: string };
}

/** One sent download, for portal_downloads. */
export interface DownloadRecord {
  nowMs: number;
  user: PortalUser;
  address: string;
  request: DownloadSubject;
  file: string;
  bytes: number;
  sha256: string;
  complete: boolean;
}

/**
 * Writes one row of the download audit: who, from where, which account, period and file, how
 * many bytes went out and their SHA-256.
 *
 * @example
 * await auditDownload(pool, { nowMs: Date.now(), user, address, request, file: 'ledger.csv', bytes, sha256, complete: true });
 */
export async function auditDownload(pool: pg.Pool, d: DownloadRecord): Promise<void> {
  await databaseOn(pool).insertInto('portal_downloads').values({
    at: new Date(d.nowMs), user_id: d.user.id, username: d.user.username, address: d.address, account_uid: d.request.account,
    format: d.request.format, period_from: d.request.period.from, period_to: d.request.period.to, tz: d.request.period.tz,
    file: d.file, bytes: d.bytes, sha256: d.sha256, complete: d.complete,
  }).execute();
}
