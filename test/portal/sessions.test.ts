import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { hashPassword, verifyPassword } from '../../src/portal/passwordHash.js';
import { findSession, listSessions, openSession, revokeSession } from '../../src/portal/sessionStore.js';
import { clearUserFailures, loginBlocked, recordLoginFailure } from '../../src/portal/loginThrottle.js';
import { addUser, listUsers, removeUser, setGrants, setPassword } from '../../src/portal/portalUsers.js';
import { defaultSessionPolicy } from '../../src/portal/sessionPolicy.js';
import { csrfToken, tokenHash } from '../../src/portal/sessionToken.js';
import { TradeledgerError } from '../../src/errors.js';

let fresh: FreshDatabase;
let pool: pg.Pool;
const policy = defaultSessionPolicy;
const t0 = Date.parse('2026-03-01T09:00:00Z');
const minute = 60_000;

beforeAll(async () => {
  fresh = await freshDatabase();
  pool = new pg.Pool({ connectionString: fresh.url, max: 3 });
  // The database is dropped WITH (FORCE) at the end; a pooled client that is still closing then
  // gets 57P01, which the pool re-emits: without a listener that is an uncaught exception.
  pool.on('error', () => {});
  // Grants name accounts the database knows (users add refuses others).
  await pool.query(`INSERT INTO accounts (uid, name, kind) VALUES ('111', 'a', 'main'), ('222', 'b', 'sub'), ('333', 'c', 'sub')`);
});
afterAll(async () => {
  await pool?.end();
  await fresh?.drop();
});
beforeEach(async () => {
  await pool.query('TRUNCATE portal_users, portal_grants, portal_sessions, portal_login_failures CASCADE');
});

async function userId(username: string): Promise<string> {
  return String((await pool.query('SELECT id FROM portal_users WHERE username = $1', [username])).rows[0].id);
}

describe('passwords', () => {
  it('scrypt hashes carry their parameters, a fresh salt each time, and verify only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain text')).toBe(false);
    expect(await verifyPassword('correct horse battery', a.replace(/\$[^$]+$/, '$AAAA'))).toBe(false);
  });
});

const codeOf = async (p: Promise<unknown>) => p.then(() => 'ok', (e: TradeledgerError) => `${e.code}: ${e.message} | ${e.hint}`);

describe('users', () => {
  it('adds, lists, grants, changes the password (ending sessions) and removes', async () => {
    await addUser(pool, { username: 'anna', password: 'long enough pw', role: 'accountant', accounts: ['111', '222'] });
    await addUser(pool, { username: 'boss', password: 'another long pw', role: 'admin', accounts: [] });
    expect(await setGrants(pool, 'anna', ['333'], true)).toEqual({ changed: ['333'], unchanged: [] });
    expect(await setGrants(pool, 'anna', ['111'], false)).toEqual({ changed: ['111'], unchanged: [] });
    // What did not change is said as such: `users revoke` of an account never granted said "revoked".
    expect(await setGrants(pool, 'anna', ['333', '222'], true)).toEqual({ changed: [], unchanged: ['333', '222'] });
    expect(await setGrants(pool, 'anna', ['111', '444'], false)).toEqual({ changed: [], unchanged: ['111', '444'] });
    const token = await openSession(pool, await userId('anna'), t0, policy, '10.0.0.1', 'test');
    expect(await listUsers(pool, t0)).toEqual([
      { username: 'anna', role: 'accountant', accounts: ['222', '333'], createdAt: expect.stringMatching(/Z$/), activeSessions: 1 },
      { username: 'boss', role: 'admin', accounts: [], createdAt: expect.stringMatching(/Z$/), activeSessions: 0 },
    ]);
    await setPassword(pool, 'anna', 'a new long password', t0 + minute);
    expect(await findSession(pool, token, t0 + 2 * minute, policy)).toBeUndefined();
    const stored = (await pool.query(`SELECT password_hash FROM portal_users WHERE username = 'anna'`)).rows[0].password_hash;
    expect(await verifyPassword('a new long password', stored)).toBe(true);
    await removeUser(pool, 'anna');
    expect((await listUsers(pool, t0)).map((u) => u.username)).toEqual(['boss']);
    expect((await pool.query('SELECT count(*)::int AS n FROM portal_grants')).rows[0].n).toBe(0);
  });

  it('refuses short passwords, the user name as password, duplicates, bad names and grants to admins, with a fix', async () => {
    expect(await codeOf(addUser(pool, { username: 'anna', password: 'short', role: 'accountant', accounts: [] })))
      .toBe('PORTAL_WEAK_PASSWORD: the password is shorter than 10 characters | Choose a longer password; a few unrelated words work well.');
    expect(await codeOf(addUser(pool, { username: 'annabelle1', password: 'ANNABELLE1', role: 'accountant', accounts: [] })))
      .toMatch(/^PORTAL_WEAK_PASSWORD: the password equals the user name/);
    expect(await codeOf(addUser(pool, { username: 'no spaces', password: 'long enough pw', role: 'accountant', accounts: [] })))
      .toMatch(/^PORTAL_BAD_USER: user name "no spaces" is not allowed/);
    await addUser(pool, { username: 'anna', password: 'long enough pw', role: 'accountant', accounts: [] });
    expect(await codeOf(addUser(pool, { username: 'anna', password: 'long enough pw', role: 'admin', accounts: [] })))
      .toMatch(/^PORTAL_USER_EXISTS: the portal user "anna" already exists/);
    expect(await codeOf(addUser(pool, { username: 'ANNA', password: 'long enough pw', role: 'admin', accounts: [] })))
      .toMatch(/^PORTAL_USER_EXISTS: the portal user "ANNA" already exists/);
    expect(await codeOf(addUser(pool, { username: 'boss', password: 'long enough pw', role: 'admin', accounts: ['1'] })))
      .toMatch(/^PORTAL_BAD_USER: an admin sees every account/);
    expect(await codeOf(removeUser(pool, 'nobody'))).toBe('PORTAL_NO_USER: there is no portal user "nobody" | Run `tradeledger users list` to see the users.');
  });

  it('refuses an account the database does not know, naming the known ones, and writes nothing', async () => {
    const refused = await codeOf(addUser(pool, { username: 'erin', password: 'long enough pw', role: 'accountant', accounts: ['111', '1000000001'] }));
    expect(refused).toMatch(/^REPORT_UNKNOWN_ACCOUNT: no account with UID "1000000001".* \| Use one of: 111 \(a\), 222 \(b\), 333 \(c\)/);
    expect((await pool.query(`SELECT count(*)::int AS n FROM portal_users WHERE username = 'erin'`)).rows[0].n).toBe(0);
    await addUser(pool, { username: 'erin', password: 'long enough pw', role: 'accountant', accounts: ['111'] });
    expect(await codeOf(setGrants(pool, 'erin', ['222', 'b'], true))).toMatch(/^REPORT_UNKNOWN_ACCOUNT: .*"b".* \| --account takes the UID: use --account 222 for "b"/);
    expect((await listUsers(pool, t0)).find((u) => u.username === 'erin')?.accounts).toEqual(['111']);
  });
});

describe('sessions', () => {
  it('stores only the token\'s hash; the token finds its user until revoked', async () => {
    await addUser(pool, { username: 'anna', password: 'long enough pw', role: 'accountant', accounts: [] });
    const id = await userId('anna');
    const token = await openSession(pool, id, t0, policy, '10.0.0.1', 'Firefox');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = (await pool.query('SELECT to_jsonb(s)::text AS text, token_hash FROM portal_sessions s')).rows[0];
    expect(row.text).not.toContain(token);
    expect(Buffer.compare(row.token_hash, tokenHash(token))).toBe(0);
    const session = await findSession(pool, token, t0 + minute, policy);
    expect(session?.user).toEqual({ id, username: 'anna', role: 'accountant' });
    // One character changed (a token that already ends in 'A' gets a 'B'), so never the token itself.
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await findSession(pool, altered, t0 + minute, policy)).toBeUndefined();
    expect(csrfToken(token)).not.toBe(csrfToken(`${token}x`));

    const other = await openSession(pool, id, t0, policy, '10.0.0.2', 'Chrome');
    expect((await listSessions(pool, id, t0 + minute)).map((s) => s.address).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(await revokeSession(pool, session!.id, '999999', t0)).toBe(false); // not that user's
    expect(await revokeSession(pool, session!.id, id, t0 + minute)).toBe(true);
    expect(await findSession(pool, token, t0 + 2 * minute, policy)).toBeUndefined();
    expect(await findSession(pool, other, t0 + 2 * minute, policy)).toBeDefined();
  });

  it('ends after the idle time, and after the absolute time however busy', async () => {
    await addUser(pool, { username: 'anna', password: 'long enough pw', role: 'accountant', accounts: [] });
    const id = await userId('anna');
    const idle = await openSession(pool, id, t0, policy, 'a', 'ua');
    expect(await findSession(pool, idle, t0 + 29 * minute, policy)).toBeDefined();
    expect(await findSession(pool, idle, t0 + 29 * minute + 31 * minute, policy)).toBeUndefined();

    const busy = await openSession(pool, id, t0, policy, 'a', 'ua');
    let at = t0;
    while (at < t0 + policy.absoluteMs - 20 * minute) {
      at += 20 * minute;
      expect(await findSession(pool, busy, at, policy), new Date(at).toISOString()).toBeDefined();
    }
    expect(await findSession(pool, busy, t0 + policy.absoluteMs + minute, policy)).toBeUndefined();
  });
});

describe('login rate limits', () => {
  it('blocks a user name after 5 failures and an address after 20, for the window only', async () => {
    for (let i = 0; i < 4; i++) await recordLoginFailure(pool, 'Anna', `10.0.0.${i}`, t0 + i * 1000);
    expect(await loginBlocked(pool, 'anna', '10.9.9.9', t0 + 5000, policy)).toBeUndefined();
    await recordLoginFailure(pool, 'anna', '10.0.0.9', t0 + 5000);
    expect(await loginBlocked(pool, 'ANNA', '10.9.9.9', t0 + 6000, policy)).toEqual({ by: 'user', retryAfterSeconds: 894 });
    expect(await loginBlocked(pool, 'anna', '10.9.9.9', t0 + 15 * minute + 1000, policy)).toBeUndefined();

    for (let i = 0; i < 20; i++) await recordLoginFailure(pool, `user${i}`, '10.1.1.1', t0 + i);
    expect(await loginBlocked(pool, 'somebody-else', '10.1.1.1', t0 + minute, policy)).toEqual({ by: 'address', retryAfterSeconds: 840 });
    expect(await loginBlocked(pool, 'somebody-else', '10.1.1.2', t0 + minute, policy)).toBeUndefined();

    await clearUserFailures(pool, 'ANNA');
    expect((await pool.query(`SELECT count(*)::int AS n FROM portal_login_failures WHERE username = 'anna'`)).rows[0].n).toBe(0);
  });
});
