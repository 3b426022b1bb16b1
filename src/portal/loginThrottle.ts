import type pg from 'pg';
import type { SessionPolicy } from './sessionPolicy.js';

/** Why a login is refused before its password is even checked. */
export interface LoginBlock {
  by: 'user' | 'address';
  /** Seconds until the oldest counted failure leaves the window. */
  retryAfterSeconds: number;
}

/**
 * Whether a user name or an address has failed too often within the policy's window. Both are
 * counted: per user stops guessing one password from many addresses, per address stops one
 * client trying many names.
 *
 * @example
 * const block = await loginBlocked(pool, 'anna', '10.0.0.7', Date.now(), policy);
 */
export async function loginBlocked(pool: pg.Pool, username: string, address: string, nowMs: number, policy: SessionPolicy): Promise<LoginBlock | undefined> {
  const since = new Date(nowMs - policy.windowMs);
  const { rows } = await pool.query(
    `SELECT 'user' AS by, count(*)::int AS n, min(failed_at) AS oldest FROM portal_login_failures WHERE username = $1 AND failed_at > $3
     UNION ALL
     SELECT 'address', count(*)::int, min(failed_at) FROM portal_login_failures WHERE address = $2 AND failed_at > $3`,
    [username.toLowerCase(), address, since]);
  for (const row of rows) {
    const limit = row.by === 'user' ? policy.maxFailuresPerUser : policy.maxFailuresPerAddress;
    if (row.n >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((row.oldest as Date).getTime() + policy.windowMs - nowMs) / 1000));
      return { by: row.by, retryAfterSeconds };
    }
  }
  return undefined;
}

/**
 * Counts one failed login, and prunes failures older than a day.
 *
 * @example
 * await recordLoginFailure(pool, 'anna', '10.0.0.7', Date.now());
 */
export async function recordLoginFailure(pool: pg.Pool, username: string, address: string, nowMs: number): Promise<void> {
  await pool.query('INSERT INTO portal_login_failures (username, address, failed_at) VALUES ($1, $2, $3)', [username.toLowerCase().slice(0, 100), address, new Date(nowMs)]);
  await pool.query('DELETE FROM portal_login_failures WHERE failed_at < $1', [new Date(nowMs - 86_400_000)]);
}

/**
 * Forgets a user name's failures after a successful login (the address's stay counted).
 *
 * @example
 * await clearUserFailures(pool, 'anna');
 */
export async function clearUserFailures(pool: pg.Pool, username: string): Promise<void> {
  await pool.query('DELETE FROM portal_login_failures WHERE username = $1', [username.toLowerCase()]);
}
