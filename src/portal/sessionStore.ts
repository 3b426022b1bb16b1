import type pg from 'pg';
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
  await pool.query(
    `INSERT INTO portal_sessions (token_hash, user_id, created_at, last_seen_at, expires_at, absolute_expires_at, address, user_agent)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7)`,
    [tokenHash(token), userId, now, expires, absolute, address, userAgent.slice(0, 300)]);
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
  const { rows } = await pool.query(
    `SELECT s.id, s.last_seen_at, s.absolute_expires_at, u.id AS user_id, u.username, u.role
     FROM portal_sessions s JOIN portal_users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [tokenHash(token), now]);
  const row = rows[0];
  if (!row) return undefined;
  if (nowMs - (row.last_seen_at as Date).getTime() > 60_000) {
    const expires = new Date(Math.min(nowMs + policy.idleMs, (row.absolute_expires_at as Date).getTime()));
    await pool.query('UPDATE portal_sessions SET last_seen_at = $2, expires_at = $3 WHERE id = $1', [row.id, now, expires]);
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
  const { rowCount } = await pool.query(
    'UPDATE portal_sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [sessionId, userId, new Date(nowMs)]);
  return (rowCount ?? 0) > 0;
}

/**
 * A user's open sessions, newest first.
 *
 * @example
 * const sessions = await listSessions(pool, user.id, Date.now());
 */
export async function listSessions(pool: pg.Pool, userId: string, nowMs: number): Promise<SessionListing[]> {
  const { rows } = await pool.query(
    `SELECT id, created_at, last_seen_at, expires_at, address, user_agent FROM portal_sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id DESC`, [userId, new Date(nowMs)]);
  return rows.map((r) => ({
    id: String(r.id), createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, address: r.address, userAgent: r.user_agent,
  }));
}
