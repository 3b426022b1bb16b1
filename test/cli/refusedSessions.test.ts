// A database that refuses what a command does is an operator's setting, not a bug. Before, each of
// these ended "unexpected error: ... This is a bug; please report it": a read-only database (a
// standby, default_transaction_read_only or an analysts' `db reader` login: SQLSTATE 25006) for
// `status` and `gains`, and a login with no right to the tables (42501) for `gains`.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { addReader } from '../../src/db/readerRoles.js';
import { emptyDatabase, freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runCli } from '../support/runCli.js';
import { tempFolder } from '../support/tempFolder.js';

async function onDatabase(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { await c.query(text); } finally { await c.end(); }
}
const nameOf = (url: string) => new URL(url).pathname.slice(1);

let fresh: FreshDatabase;
let empty: { url: string; drop(): Promise<void> };
const reader = `tl_refused_${Math.random().toString(36).slice(2, 8)}`;
const stranger = `${reader}_x`;
const password = `pw-${Math.random().toString(36).slice(2)}-long`;
beforeAll(async () => {
  fresh = await freshDatabase();
  empty = await emptyDatabase();
});
afterAll(async () => {
  await fresh?.drop();
  await empty?.drop();
  for (const role of [reader, stranger]) await onDatabase(inject('databaseUrl'), `DROP ROLE IF EXISTS ${role}`).catch(() => {});
});

describe('a database that refuses the command says so, with the fix', () => {
  it('a read-only database: a migrated one still serves status and reports; gains (which writes) and an unmigrated one are told', async () => {
    const dir = tempFolder('tl-refused-');
    await onDatabase(fresh.url, `ALTER DATABASE "${nameOf(fresh.url)}" SET default_transaction_read_only = on`);
    await onDatabase(empty.url, `ALTER DATABASE "${nameOf(empty.url)}" SET default_transaction_read_only = on`);
    try {
      const env = { DATABASE_URL: fresh.url };
      const status = await runCli(['status'], env);
      expect(status.stderr).not.toMatch(/bug/);
      expect(status.code).toBe(exitCodes.ok);
      const report = await runCli(['report', '--year', '2025', '--format', 'koinly', '--out', `${dir}/r`], env);
      expect(report.code).toBe(exitCodes.ok);
      const gains = await runCli(['gains', '--rules', 'uk', '--year', '2025', '--out', `${dir}/g`], env);
      expect(gains.stderr).toContain('PostgreSQL refused a write: the database is read-only for this session');
      expect(gains.stderr).toContain('against the primary server, or turn read-only off for the database');
      expect(gains.stderr).not.toMatch(/bug/);
      expect(gains.code).toBe(exitCodes.database);
      const unmigrated = await runCli(['status'], { DATABASE_URL: empty.url });
      expect(unmigrated.stderr).toContain(`database "${nameOf(empty.url)}" is read-only for the database user`);
      expect(unmigrated.stderr).toContain(`ALTER DATABASE "${nameOf(empty.url)}" SET default_transaction_read_only = off`);
      expect(unmigrated.code).toBe(exitCodes.database);
    } finally {
      await onDatabase(inject('databaseUrl'), `ALTER DATABASE "${nameOf(fresh.url)}" RESET default_transaction_read_only`);
    }
  }, 120_000);

  it('an analysts\' reader login running gains is told it only reads; a login without rights is told so', async () => {
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    try { await addReader(admin, reader, password); } finally { await admin.end(); }
    const u = new URL(fresh.url);
    u.username = reader;
    u.password = password;
    const dir = tempFolder('tl-refused-');
    const gains = await runCli(['gains', '--rules', 'uk', '--year', '2025', '--out', `${dir}/g`], { DATABASE_URL: u.toString() });
    expect(gains.stderr).toContain('the database is read-only for this session, as on a standby server, with default_transaction_read_only, or for a `tradeledger db reader` login (25006');
    expect(gains.stderr).toContain('run it as the database\'s owner, not a reader login');
    expect(gains.code).toBe(exitCodes.database);
    // A login with no right to the tables at all (CONNECT only) is refused the read: 42501.
    await onDatabase(fresh.url, `CREATE ROLE ${stranger} LOGIN PASSWORD '${password}'`);
    u.username = stranger;
    const refused = await runCli(['gains', '--rules', 'uk', '--year', '2025', '--out', `${dir}/g2`], { DATABASE_URL: u.toString() });
    expect(refused.stderr).toContain('PostgreSQL refused the database user a right this command needs (42501 permission denied');
    expect(refused.stderr).toContain('Run it as the user that owns the database');
    expect(refused.stderr).not.toMatch(/bug/);
    expect(refused.code).toBe(exitCodes.database);
  }, 120_000);
});
