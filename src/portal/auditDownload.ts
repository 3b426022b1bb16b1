import type pg from 'pg';
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
  await pool.query(
    `INSERT INTO portal_downloads (at, user_id, username, address, account_uid, format, period_from, period_to, tz, file, bytes, sha256, complete)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [new Date(d.nowMs), d.user.id, d.user.username, d.address, d.request.account, d.request.format, d.request.period.from,
      d.request.period.to, d.request.period.tz, d.file, d.bytes, d.sha256, d.complete]);
}
