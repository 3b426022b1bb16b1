import type pg from 'pg';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { databaseOn } from '../db/databaseOn.js';
import type { Database } from '../db/databaseTypes.js';
import { checkReportAccount } from '../reports/checkReportAccount.js';
import { TradeledgerError } from '../errors.js';
import { hashPassword } from './passwordHash.js';
import type { PortalRole, PortalUser } from './portalUser.js';

/** One row of `tradeledger users list`. */
export interface PortalUserListing {
  username: string;
  role: PortalRole;
  accounts: string[];
  createdAt: string;
  activeSessions: number;
}

const namePattern = /^[A-Za-z0-9._@-]{1,64}$/;

function checkName(username: string): void {
  if (!namePattern.test(username)) {
    throw new TradeledgerError('PORTAL_BAD_USER', `user name "${username}" is not allowed`, {
      kind: 'config', hint: 'Use 1 to 64 letters, digits, dots, dashes, underscores or @, e.g. anna@firm.example.',
    });
  }
}

/**
 * Checks a new password: long enough to resist guessing (NIST SP 800-63B asks for at least 8
 * characters; 10 here), and not the user name.
 *
 * @example
 * checkPassword('anna', 'correct horse battery'); // ok
 */
export function checkPassword(username: string, password: string): void {
  if (password.length < 10) {
    throw new TradeledgerError('PORTAL_WEAK_PASSWORD', 'the password is shorter than 10 characters', {
      kind: 'config', hint: 'Choose a longer password; a few unrelated words work well.',
    });
  }
  if (password.toLowerCase() === username.toLowerCase()) {
    throw new TradeledgerError('PORTAL_WEAK_PASSWORD', 'the password equals the user name', { kind: 'config', hint: 'Choose a different password.' });
  }
}

/**
 * The user signing in, with the password hash to check (the only reader of the hash), by name
 * regardless of case; undefined when there is no such user.
 *
 * @example
 * const user = await findLoginUser(pool, 'Anna');
 * if (user && await verifyPassword(password, user.passwordHash)) ...
 */
export async function findLoginUser(pool: pg.Pool, username: string): Promise<(PortalUser & { passwordHash: string }) | undefined> {
  const { rows } = await pool.query<{ id: string; username: string; role: PortalRole; password_hash: string }>(
    'SELECT id, username, role, password_hash FROM portal_users WHERE lower(username) = lower($1)', [username]);
  const row = rows[0];
  return row && { id: row.id, username: row.username, role: row.role, passwordHash: row.password_hash };
}

// User names are unique regardless of case (the unique index is on lower(username)).
const named = (username: string) => (eb: ExpressionBuilder<Database, 'portal_users'>): Expression<SqlBool> =>
  eb(eb.fn('lower', ['username']), '=', eb.fn('lower', [eb.val(username)]));

function noSuchUser(username: string): TradeledgerError {
  return new TradeledgerError('PORTAL_NO_USER', `there is no portal user "${username}"`, {
    kind: 'config', hint: 'Run `tradeledger users list` to see the users.',
  });
}

/**
 * Adds a portal user with a role and, for accountants, the accounts they may see.
 *
 * @example
 * await addUser(pool, { username: 'anna', password, role: 'accountant', accounts: ['1000000001'] });
 */
export async function addUser(pool: pg.Pool, user: { username: string; password: string; role: PortalRole; accounts: string[] }): Promise<void> {
  checkName(user.username);
  checkPassword(user.username, user.password);
  if (user.role === 'admin' && user.accounts.length > 0) {
    throw new TradeledgerError('PORTAL_BAD_USER', 'an admin sees every account; --account is for accountants', {
      kind: 'config', hint: 'Drop --account, or use --role accountant.',
    });
  }
  // A grant of a UID the database does not know would show the accountant nothing, silently.
  for (const account of user.accounts) await checkReportAccount(pool, account);
  const hash = await hashPassword(user.password);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const db = databaseOn(client);
    const inserted = await db.insertInto('portal_users').values({ username: user.username, password_hash: hash, role: user.role })
      .onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
    if (inserted === undefined) {
      throw new TradeledgerError('PORTAL_USER_EXISTS', `the portal user "${user.username}" already exists`, {
        kind: 'config', hint: 'Pick another name, or change the password with `tradeledger users passwd`.',
      });
    }
    for (const account of user.accounts) {
      await db.insertInto('portal_grants').values({ user_id: inserted.id, account_uid: account }).onConflict((oc) => oc.doNothing()).execute();
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The portal's users, their roles, granted accounts and open sessions.
 *
 * @example
 * for (const u of await listUsers(pool, Date.now())) console.log(u.username, u.role);
 */
export async function listUsers(pool: pg.Pool, nowMs: number): Promise<PortalUserListing[]> {
  const { rows } = await pool.query(
    `SELECT u.username, u.role, to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI"Z"') AS created_at,
            coalesce((SELECT array_agg(g.account_uid ORDER BY g.account_uid) FROM portal_grants g WHERE g.user_id = u.id), '{}') AS accounts,
            (SELECT count(*)::int FROM portal_sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > $1) AS sessions
     FROM portal_users u ORDER BY u.username`, [new Date(nowMs)]);
  return rows.map((r) => ({ username: r.username, role: r.role, accounts: r.accounts, createdAt: r.created_at, activeSessions: r.sessions }));
}

/**
 * Removes a user; their grants and sessions go with them (downloads stay in the audit table).
 *
 * @example
 * await removeUser(pool, 'anna');
 */
export async function removeUser(pool: pg.Pool, username: string): Promise<void> {
  const { numDeletedRows } = await databaseOn(pool).deleteFrom('portal_users').where(named(username)).executeTakeFirstOrThrow();
  if (numDeletedRows === 0n) throw noSuchUser(username);
}

/**
 * Sets a new password and revokes every open session of the user.
 *
 * @example
 * await setPassword(pool, 'anna', newPassword, Date.now());
 */
export async function setPassword(pool: pg.Pool, username: string, password: string, nowMs: number): Promise<void> {
  checkPassword(username, password);
  const hash = await hashPassword(password);
  const db = databaseOn(pool);
  const changed = await db.updateTable('portal_users').set({ password_hash: hash, password_changed_at: new Date(nowMs) })
    .where(named(username)).returning('id').executeTakeFirst();
  if (changed === undefined) throw noSuchUser(username);
  await db.updateTable('portal_sessions').set({ revoked_at: new Date(nowMs) }).where('user_id', '=', changed.id).where('revoked_at', 'is', null).execute();
}

/**
 * Grants (or with `grant: false`, withdraws) accounts to an accountant; returns which of them
 * changed (`users revoke` of an account never granted said "revoked" all the same).
 *
 * @example
 * await setGrants(pool, 'anna', ['1000000002'], true); // { changed: ['1000000002'], unchanged: [] }
 */
export async function setGrants(pool: pg.Pool, username: string, accounts: string[], grant: boolean): Promise<{ changed: string[]; unchanged: string[] }> {
  const db = databaseOn(pool);
  const user = await db.selectFrom('portal_users').select(['id', 'role']).where(named(username)).executeTakeFirst();
  if (!user) throw noSuchUser(username);
  if (user.role === 'admin') {
    throw new TradeledgerError('PORTAL_BAD_USER', `"${username}" is an admin and sees every account already`, { kind: 'config', hint: 'Grants are for accountants.' });
  }
  if (grant) for (const account of accounts) await checkReportAccount(pool, account);
  const changed: string[] = [];
  const unchanged: string[] = [];
  for (const account of new Set(accounts)) {
    const r = grant
      ? Number((await db.insertInto('portal_grants').values({ user_id: user.id, account_uid: account }).onConflict((oc) => oc.doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0n)
      : Number((await db.deleteFrom('portal_grants').where('user_id', '=', user.id).where('account_uid', '=', account).executeTakeFirst()).numDeletedRows);
    (r > 0 ? changed : unchanged).push(account);
  }
  return { changed, unchanged };
}
