import { createHash, randomBytes } from 'node:crypto';

/**
 * A new session token: 32 random bytes, base64url. Only its hash ({@link tokenHash}) is stored.
 *
 * @example
 * const token = newSessionToken(); // 'q3J...' (43 characters)
 */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The SHA-256 of a token, as stored in portal_sessions.token_hash.
 *
 * @example
 * await pool.query('SELECT * FROM portal_sessions WHERE token_hash = $1', [tokenHash(token)]);
 */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The CSRF token of a session: derived from the session token, so it needs no storage, and
 * useless without the cookie it belongs to.
 *
 * @example
 * <input type="hidden" name="_csrf" value={csrfToken(token)} />
 */
export function csrfToken(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');
}
