import type pg from 'pg';
import type { PortalLog } from './portalLog.js';
import { databaseOn } from '../db/databaseOn.js';
import type { PortalUser } from './portalUser.js';
import { storable } from './requestParameters.js';

/** An account a user may see. */
export interface VisibleAccount {
  uid: string;
  name: string;
  kind: string;
}

/**
 * The accounts a user may see: every synced account and imported wallet for an admin; for an
 * accountant, the accounts granted to them (a granted account not synced yet is listed with kind
 * "not synced", an imported wallet with kind "imported wallet").
 * Every route that takes an account checks it against this list on the server.
 *
 * @example
 * const accounts = await visibleAccounts(pool, session.user);
 */
export async function visibleAccounts(pool: pg.Pool, user: PortalUser): Promise<VisibleAccount[]> {
  const { rows } = user.role === 'admin'
    ? await pool.query(
      `SELECT uid, name, kind FROM accounts
       UNION SELECT DISTINCT account_uid, account_uid, 'not synced' FROM sync_state WHERE account_uid NOT IN (SELECT uid FROM accounts)
       UNION SELECT DISTINCT wallet, wallet, 'imported wallet' FROM imported_transactions WHERE wallet NOT IN (SELECT uid FROM accounts)
       ORDER BY 1`)
    : await pool.query(
      `SELECT g.account_uid AS uid, coalesce(a.name, g.account_uid) AS name,
              coalesce(a.kind, CASE WHEN EXISTS (SELECT 1 FROM imported_transactions i WHERE i.wallet = g.account_uid) THEN 'imported wallet' ELSE 'not synced' END) AS kind
       FROM portal_grants g LEFT JOIN accounts a ON a.uid = g.account_uid WHERE g.user_id = $1 ORDER BY 1`, [user.id]);
  return rows.map((r) => ({ uid: r.uid, name: r.name, kind: r.kind }));
}

/** A refused request, for portal_access_denied. */
export interface AccessDenial {
  nowMs: number;
  user: PortalUser | undefined;
  address: string;
  method: string;
  path: string;
  account: string | undefined;
  status: number;
  /** Why a 400 was refused (which parameter, what was wrong); none for a refused account. */
  reason?: string;
}

/**
 * Records a refused request (an account the user may not see, or bad parameters), in the table
 * and as one line of the portal's log (portalLog.ts). NUL bytes are stored as `\0`: one in the
 * account (a 500 once) must not stop the refusal being recorded.
 *
 * @example
 * await logAccessDenied(pool, { nowMs: Date.now(), user, address, method: 'GET', path: '/reports', account: '42', status: 404 }, log);
 */
export async function logAccessDenied(pool: pg.Pool, denial: AccessDenial, log: PortalLog): Promise<void> {
  log('portal-access-denied', {
    user: denial.user?.username ?? null,
    address: denial.address, method: denial.method, path: denial.path, account: denial.account ?? null, status: denial.status,
    ...(denial.reason === undefined ? {} : { reason: denial.reason }),
  });
  await databaseOn(pool).insertInto('portal_access_denied').values({
    at: new Date(denial.nowMs), user_id: denial.user?.id ?? null, username: denial.user?.username ?? null, address: denial.address,
    method: denial.method, path: storable(denial.path.slice(0, 500)),
    account_uid: denial.account === undefined ? null : storable(denial.account.slice(0, 200)), status: denial.status,
    reason: denial.reason === undefined ? null : storable(denial.reason),
  }).execute();
}
