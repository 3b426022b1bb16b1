import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { migrate } from '../../src/db/migrate.js';
import { defaultMigrationsDir } from '../../src/db/migrationFiles.js';
import { addReader, hiddenFromReaders, listReaders, scramVerifier } from '../../src/db/readerRoles.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { failureOf } from '../support/failure.js';
import { runCli } from '../support/runCli.js';

// Roles belong to the whole server (shared by every test run on it): a name of this run's own,
// dropped at the end.
const suffix = `${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
const reader = `tl_reader_${suffix}`;
const other = `tl_reader2_${suffix}`;
const password = 'correct horse battery staple';
let fresh: FreshDatabase;
let scratch: string;

const as = (role: string, pw: string) => {
  const u = new URL(fresh.url);
  u.username = role;
  u.password = pw;
  return u.toString();
};
/** Runs one statement as `role`; resolves to the rows, or to the error's SQLSTATE. */
async function asReader(text: string, role = reader, pw = password): Promise<unknown[] | { code: string }> {
  const client = new pg.Client({ connectionString: as(role, pw) });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query(text)).rows;
  } catch (err) {
    return { code: String((err as { code?: string }).code) };
  } finally {
    await client.end().catch(() => {});
  }
}
async function onOwner<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  fresh = await freshDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'tl-readers-'));
});
afterAll(async () => {
  await fresh?.drop();
  const admin = new pg.Client({ connectionString: fresh.url.replace(/\/[^/?]+(\?|$)/, '/postgres$1') });
  await admin.connect().then(async () => {
    for (const r of [reader, other]) await admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => {});
  }).finally(() => admin.end().catch(() => {}));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('db reader: read-only logins for analysts', () => {
  it('adds a login that reads the ledger and the history, never the portal\'s credentials, and writes nothing', async () => {
    const r = await runCli(['db', 'reader', 'add', reader], { DATABASE_URL: fresh.url }, `${password}\n`);
    expect(r.code, r.stderr).toBe(exitCodes.ok);
    expect(r.stdout).toMatch(new RegExp(`^added reader ${reader}: psql "postgres(?:ql)?://${reader}@[^"]+/tl_test_[^"]+" \\(read-only; not portal_users, portal_sessions, portal_login_failures, portal_access_denied\\)\\n$`));
    expect(r.stdout + r.stderr).not.toContain(password);
    await onOwner((c) => c.query(`INSERT INTO accounts (uid, name, kind) VALUES ('1000000001', 'main', 'main')`));
    expect(await asReader('SELECT uid FROM accounts')).toEqual([{ uid: '1000000001' }]);
    expect(await asReader('SELECT count(*)::int AS n FROM ledger')).toEqual([{ n: 0 }]);
    expect(await asReader("SELECT count(*)::int AS n FROM ledger_valued('USD')")).toEqual([{ n: 0 }]);
    expect(await asReader('SELECT count(*)::int AS n FROM spot_fills')).toEqual([{ n: 0 }]);
    for (const t of hiddenFromReaders) expect(await asReader(`SELECT * FROM ${t} LIMIT 1`), t).toEqual({ code: '42501' });
    // read-only by default (25006), and no privilege to write even in a read-write transaction (42501)
    expect(await asReader("DELETE FROM accounts")).toEqual({ code: '25006' });
    expect(await asReader("BEGIN READ WRITE; DELETE FROM accounts; COMMIT")).toEqual({ code: '42501' });
    expect(await asReader('BEGIN READ WRITE; CREATE TABLE mine (x int); COMMIT')).toEqual({ code: '42501' });
    expect(await onOwner(async (c) => (await c.query('SELECT count(*)::int AS n FROM accounts')).rows)).toEqual([{ n: 1 }]);
    const list = await runCli(['db', 'reader', 'list'], { DATABASE_URL: fresh.url });
    expect(list.stdout).toBe(`${reader}\n`);
  });

  it('the server is given a SCRAM verifier, never the password: the stored secret is that verifier', async () => {
    const stored = await onOwner(async (c) => (await c.query<{ p: string }>('SELECT rolpassword AS p FROM pg_authid WHERE rolname = $1', [reader])).rows[0]?.p);
    const m = /^SCRAM-SHA-256\$4096:([A-Za-z0-9+/=]+)\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/.exec(stored ?? '');
    expect(m, stored).not.toBeNull();
    // The same password and salt give the same verifier: what the server keeps is ours, computed here.
    expect(scramVerifier(password, Buffer.from(m![1]!, 'base64'))).toBe(stored);
    expect(scramVerifier('another password', Buffer.from(m![1]!, 'base64'))).not.toBe(stored);
    // Where the server asks for passwords (the embedded one does; the CI service trusts loopback), a wrong one is refused.
    const hba = await onOwner(async (c) => (await c.query<{ m: string }>("SELECT auth_method AS m FROM pg_hba_file_rules WHERE type = 'host' AND error IS NULL LIMIT 1")).rows[0]?.m);
    if (hba === 'scram-sha-256' || hba === 'md5') expect(await asReader('SELECT 1', reader, 'wrong password!!')).toEqual({ code: '28P01' });
  });

  it('refuses bad names, short passwords and roles that may do more; remove takes the login away', async () => {
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      expect((await failureOf(() => addReader(client, 'Robert\'); DROP TABLE accounts;--', password))).message).toMatch(/is not a reader name/);
      expect((await failureOf(() => addReader(client, other, 'short'))).message).toBe('the password is shorter than 12 characters');
      const me = (await client.query<{ u: string }>('SELECT current_user AS u')).rows[0]!.u;
      const self = await failureOf(() => addReader(client, me, password));
      expect([self.code, self.message]).toEqual(['DB_READER', `the role "${me}" exists and is the one tradeledger connects as: it cannot be made a reader`]);
      expect(await listReaders(client)).toEqual([reader]);
    } finally {
      await client.end();
    }
    const removed = await runCli(['db', 'reader', 'remove', reader], { DATABASE_URL: fresh.url });
    expect(removed.code, removed.stderr).toBe(exitCodes.ok);
    expect(removed.stdout).toBe(`removed reader ${reader} (login dropped)\n`);
    // the login is gone: no such role (28000), or with password auth the server's one answer for either (28P01)
    expect(['28000', '28P01']).toContain((await asReader('SELECT 1') as { code: string }).code);
    const again = await runCli(['db', 'reader', 'remove', reader], { DATABASE_URL: fresh.url });
    expect(again.code).toBe(exitCodes.configOrAuth);
    expect(again.stderr).toBe(`tradeledger: "${reader}" is not a reader of this database\n  fix: List the readers with: tradeledger db reader list\n`);
  });
  // Last: the database then holds a migration this tree does not (the CLI refuses it from here on).
  it('a migration that adds a table grants it to the readers', async () => {
    const dir = path.join(scratch, 'migrations');
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await writeFile(path.join(dir, '9999_reader_test_table.sql'), 'CREATE TABLE reader_test_table (x int); INSERT INTO reader_test_table VALUES (7);');
    await onOwner((c) => addReader(c, other, password));
    await migrate(fresh.url, { dir });
    expect(await asReader('SELECT x FROM reader_test_table', other)).toEqual([{ x: 7 }]);
    for (const t of hiddenFromReaders) expect(await asReader(`SELECT * FROM ${t} LIMIT 1`, other), t).toEqual({ code: '42501' });
  });

});
