import type pg from 'pg';
import { databaseOn } from '../db/databaseOn.js';
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
export async function loginBlocked(pool: pg.Pool | pg.PoolClient, username: string, address: string, nowMs: number, policy: SessionPolicy): Promise<LoginBlock | undefined> {
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

/** A sign-in attempt counted as a failure until {@link loginSucceeded} takes it back. */
export type LoginAttempt = { blocked: LoginBlock } | { blocked?: undefined; attemptId: string };

/**
 * Checks the limits and counts this attempt as a failure in one transaction, under advisory
 * locks on the user name and the address, before the (slow) password check: parallel attempts
 * then queue here, and the sixth of 40 parallel wrong passwords for one user is refused instead
 * of all 40 being checked (check-then-verify-then-count let them all through). A right password
 * takes its attempt back with {@link loginSucceeded}.
 *
 * @example
 * const a = await claimLoginAttempt(pool, 'anna', '10.0.0.7', Date.now(), policy);
 * if (a.blocked) refuse(a.blocked); else if (ok) await loginSucceeded(pool, 'anna', a.attemptId);
 */
export async function claimLoginAttempt(pool: pg.Pool, username: string, address: string, nowMs: number, policy: SessionPolicy): Promise<LoginAttempt> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Always the user's lock first, then the address's: two attempts never wait on each other in a cycle.
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('tradeledger.login.user:' || $1, 0)), pg_advisory_xact_lock(hashtextextended('tradeledger.login.address:' || $2, 0))`, [username.toLowerCase(), address]);
    const blocked = await loginBlocked(client, username, address, nowMs, policy);
    if (blocked) {
      await client.query('ROLLBACK');
      return { blocked };
    }
    const row = await databaseOn(client).insertInto('portal_login_failures')
      .values({ username: username.toLowerCase().slice(0, 100), address, failed_at: new Date(nowMs) }).returning('id').executeTakeFirstOrThrow();
    await client.query('COMMIT');
    return { attemptId: row.id };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * A right password: the attempt was not a failure, and the user name's failures are forgotten
 * (the address's stay counted).
 *
 * @example
 * await loginSucceeded(pool, 'anna', attemptId);
 */
export async function loginSucceeded(pool: pg.Pool, username: string, attemptId: string): Promise<void> {
  await databaseOn(pool).deleteFrom('portal_login_failures').where('id', '=', attemptId).execute();
  await clearUserFailures(pool, username);
}

/**
 * Prunes failures older than a day (the window is minutes; the rows are only evidence).
 *
 * @example
 * await pruneLoginFailures(pool, Date.now());
 */
export async function pruneLoginFailures(pool: pg.Pool, nowMs: number): Promise<void> {
  await databaseOn(pool).deleteFrom('portal_login_failures').where('failed_at', '<', new Date(nowMs - 86_400_000)).execute();
}

/**
 * Counts one failed login, and prunes failures older than a day.
 *
 * @example
 * await recordLoginFailure(pool, 'anna', '10.0.0.7', Date.now());
 */
export async function recordLoginFailure(pool: pg.Pool, username: string, address: string, nowMs: number): Promise<void> {
  await databaseOn(pool).insertInto('portal_login_failures').values({ username: username.toLowerCase().slice(0, 100), address, failed_at: new Date(nowMs) }).execute();
  await pruneLoginFailures(pool, nowMs);
}

/**
 * Forgets a user name's failures after a successful login (the address's stay counted).
 *
 * @example
 * await clearUserFailures(pool, 'anna');
 */
export async function clearUserFailures(pool: pg.Pool, username: string): Promise<void> {
  await databaseOn(pool).deleteFrom('portal_login_failures').where('username', '=', username.toLowerCase()).execute();
}
