import type pg from 'pg';
import { databaseOn } from '../db/databaseOn.js';
import { newSessionToken, tokenHash } from './sessionToken.js';
import type { SessionPolicy } from './sessionPolicy.js';
import type { PortalUser } from './portalUser.js';

/** A live session and its user. */
export interface PortalSession {
  id: string;
  user: PortalUser;
}

/** One row of the "your sessions" list. */
export interface SessionListing {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  address: string | null;
  userAgent: string | null;
}

/**
 * Opens a session for a user and returns its token (for the cookie). Only the token's hash is
 * stored.
 *
 * @example
 * const token = await openSession(pool, user.id, Date.now(), policy, '127.0.0.1', ua);
 */
export async function openSession(pool: pg.Pool, userId: string, nowMs: number, policy: SessionPolicy, address: string, userAgent: string): Promise<string> {
  const token = newSessionToken();
  const now = new Date(nowMs);
  const absolute = new Date(nowMs + policy.absoluteMs);
  const expires = new Date(Math.min(nowMs + policy.idleMs, absolute.getTime()));
  await databaseOn(pool).insertInto('portal_sessions').values({
    token_hash: tokenHash(token), user_id: userId, created_at: now, last_seen_at: now, expires_at: expires, absolute_expires_at: absolute,
    address, user_agent: userAgent.slice(0, 300),
  }).execute();
  return token;
}

/**
 * The session a cookie's token names, if it is neither revoked nor expired. Each use pushes the
 * idle expiry forward (never past the absolute one); the write is skipped within a minute of the
 * last, so a page's asset requests cost one read each.
 *
 * @example
 * const session = await findSession(pool, getCookie(c, 'tl_session'), Date.now(), policy);
 */
export async function findSession(pool: pg.Pool, token: string | undefined, nowMs: number, policy: SessionPolicy): Promise<PortalSession | undefined> {
  if (!token || token.length > 100) return undefined;
  const now = new Date(nowMs);
  const db = databaseOn(pool);
  const row = await db.selectFrom('portal_sessions as s').innerJoin('portal_users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.last_seen_at', 's.absolute_expires_at', 'u.id as user_id', 'u.username', 'u.role'])
    .where('s.token_hash', '=', tokenHash(token)).where('s.revoked_at', 'is', null).where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  if (nowMs - row.last_seen_at.getTime() > 60_000) {
    const expires = new Date(Math.min(nowMs + policy.idleMs, row.absolute_expires_at.getTime()));
    await db.updateTable('portal_sessions').set({ last_seen_at: now, expires_at: expires }).where('id', '=', row.id).execute();
  }
  return { id: String(row.id), user: { id: String(row.user_id), username: row.username, role: row.role } };
}

/**
 * Revokes one of a user's sessions (logout, or "sign out that browser"). Returns false when the
 * session is not the user's.
 *
 * @example
 * await revokeSession(pool, session.id, session.user.id, Date.now());
 */
export async function revokeSession(pool: pg.Pool, sessionId: string, userId: string, nowMs: number): Promise<boolean> {
  if (!/^\d{1,18}$/.test(sessionId)) return false;
  const { numUpdatedRows } = await databaseOn(pool).updateTable('portal_sessions').set({ revoked_at: new Date(nowMs) })
    .where('id', '=', sessionId).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  return numUpdatedRows > 0n;
}

/**
 * A user's open sessions, newest first.
 *
 * @example
 * const sessions = await listSessions(pool, user.id, Date.now());
 */
export async function listSessions(pool: pg.Pool, userId: string, nowMs: number): Promise<SessionListing[]> {
  const rows = await databaseOn(pool).selectFrom('portal_sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'address', 'user_agent'])
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', new Date(nowMs))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => ({
    id: String(r.id), createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, address: r.address, userAgent: r.user_agent,
  }));
}
