// A database that refuses what a command does is an operator's setting, not a bug. Before, each of
// these ended "unexpected error: ... This is a bug; please report it": a read-only database (a
// standby, default_transaction_read_only or an analysts' `db reader` login: SQLSTATE 25006) for
// `status` and `gains`, and a login with no right to the tables (42501) for `gains`.
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { addReader } from '../../src/db/readerRoles.js';
import { emptyDatabase, freshDatabase, withDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runCli } from '../support/runCli.js';
import { tempFolder } from '../support/tempFolder.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';

async function onDatabase(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { await c.query(text); } finally { await c.end(); }
}
const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** Until a session of that database waits for a lock (bounded only to end a hang). */
async function waitForLockWait(database: string): Promise<void> {
  const c = new pg.Client({ connectionString: inject('databaseUrl') });
  await c.connect();
  try {
    for (let i = 0; i < 1200; i++) {
      const { rows } = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [database]);
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no session came to wait for the lock');
  } finally {
    await c.end();
  }
}

let fresh: FreshDatabase;
let empty: { url: string; drop(): Promise<void> };
const reader = `tl_refused_${Math.random().toString(36).slice(2, 8)}`;
const stranger = `${reader}_x`;
const roles: string[] = [];
const password = `pw-${Math.random().toString(36).slice(2)}-long`;
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  empty = await emptyDatabase();
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
  await empty?.drop();
  for (const role of [reader, stranger, ...roles]) await onDatabase(inject('databaseUrl'), `DROP ROLE IF EXISTS ${role}`).catch(() => {});
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

  // Deterministic, not a race with a tiny timeout: a session of the test holds spot_fills (which
  // the ledger reads) locked, so each command's read waits until the server's setting stops it.
  it.each([['statement_timeout', '57014'], ['lock_timeout', '55P03']])('a server %s that stops a statement is named, with how to lift it for tradeledger', async (setting, code) => {
    const dir = tempFolder('tl-refused-');
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE spot_fills IN ACCESS EXCLUSIVE MODE');
    await onDatabase(inject('databaseUrl'), `ALTER DATABASE "${nameOf(fresh.url)}" SET ${setting} = '300ms'`);
    try {
      const account = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
      const syncEnv = { TRADELEDGER_BASE_URL: sandbox.baseUrl, TRADELEDGER_API_KEY: account.apiKey, TRADELEDGER_API_SECRET: account.secretKey, TRADELEDGER_API_PASSPHRASE: account.passphrase };
      for (const args of [['report', '--year', '2025', '--out', `${dir}/r`], ['gains', '--rules', 'uk', '--year', '2025', '--out', `${dir}/g`], ['sync', '--json', '--streams', 'spotFills,deposits']]) {
        const run = await runCli(args, { DATABASE_URL: fresh.url, ...(args[0] === 'sync' ? syncEnv : {}) });
        // the sync's JSON summary names it too (it said INTERNAL, kind internal)
        expect(run.stderr, args[0]).toContain(`PostgreSQL cancelled a statement at the server's ${setting} (${code}`);
        expect(run.stderr, args[0]).toContain(`ALTER ROLE name SET ${setting} = 0`);
        expect(run.stderr, args[0]).not.toMatch(/bug|db migrate/);
        // The sync reads every stream it can (exit 3, partial); the ones the lock held are told
        // with the setting and its fix, coded DB_REFUSED (they said the bare pg message, INTERNAL).
        if (args[0] === 'sync') {
          expect(run.stderr).toMatch(/"type":"partition-failed","account":"main","stream":"spotFills","partition":"all","code":"DB_REFUSED"/);
          // partial as a rule; failed (4) on a machine so busy that the deposits' write also outlasts 300 ms
          expect([exitCodes.partial, exitCodes.database]).toContain(run.code);
        } else {
          expect(run.code, args[0]).toBe(exitCodes.database);
        }
      }
      // The fix it names, in DATABASE_URL: the report then waits for the lock, and is written once it goes.
      const u = new URL(fresh.url);
      u.searchParams.set('options', `-c ${setting}=0`);
      const waiting = runCli(['report', '--year', '2025', '--format', 'koinly', '--out', `${dir}/r2`], { DATABASE_URL: u.toString() });
      await waitForLockWait(nameOf(fresh.url));
      await holder.query('ROLLBACK');
      expect((await waiting).code).toBe(exitCodes.ok);
    } finally {
      await holder.end().catch(() => {});
      await onDatabase(inject('databaseUrl'), `ALTER DATABASE "${nameOf(fresh.url)}" RESET ${setting}`);
    }
  }, 120_000);

  it('a user whose CONNECTION LIMIT is below what a sync opens is told so, not that PostgreSQL went away', async () => {
    const limited = `${reader}_c`;
    roles.push(limited);
    // A database of its own, owned by that user: a member of the admin role would count as an
    // analysts' reader on every test database (db reader list) while it exists.
    const own = await emptyDatabase();
    await onDatabase(inject('databaseUrl'), `CREATE ROLE ${limited} LOGIN PASSWORD '${password}' CONNECTION LIMIT 1; ALTER DATABASE "${nameOf(own.url)}" OWNER TO ${limited}`);
    const u = new URL(own.url);
    u.username = limited;
    u.password = password;
    const account = sandbox.accounts.find((a) => a.main && !a.demo && a.perms.includes('read'))!;
    const run = await runCli(['sync', '--streams', 'spotFills,deposits,transfers'], {
      DATABASE_URL: u.toString(), TRADELEDGER_BASE_URL: sandbox.baseUrl, TRADELEDGER_API_KEY: account.apiKey, TRADELEDGER_API_SECRET: account.secretKey, TRADELEDGER_API_PASSPHRASE: account.passphrase,
    });
    // Whichever connection is refused (the run record's, a stream's, the rate budgets'), the words
    // name the limit and its fix (they said "lost PostgreSQL ... it may have restarted", or to
    // check that DATABASE_URL points at a running server).
    expect(run.stderr).toContain(`too many connections for role "${limited}"`);
    expect(run.stderr).toContain('allows fewer connections than tradeledger opens at once');
    expect(run.stderr).toContain('ALTER ROLE name CONNECTION LIMIT -1');
    expect(run.stderr).not.toMatch(/it may have restarted|bug|points at a running/);
    expect(run.code).toBe(exitCodes.database);
    await own.drop();
  }, 120_000);

  it('a database not in UTF8: a new one is refused before anything is made; one already in use is told at the character it cannot hold', async () => {
    const name = `tl_latin_${Math.random().toString(36).slice(2, 8)}`;
    const admin = inject('databaseUrl');
    await onDatabase(admin, `CREATE DATABASE ${name} ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'`);
    const url = withDatabase(admin, name);
    try {
      const fresh = await runCli(['status'], { DATABASE_URL: url });
      expect(fresh.stderr).toContain(`database "${name}" is encoded LATIN1, and tradeledger needs UTF8`);
      expect(fresh.stderr).toContain('createdb --encoding=UTF8 --template=template0 NAME');
      expect(fresh.code).toBe(exitCodes.database);
      const made = new pg.Client({ connectionString: url });
      await made.connect();
      try {
        expect((await made.query(`SELECT to_regclass('schema_migrations')::text AS t`)).rows[0].t).toBeNull();
        // One made by an older tradeledger (before this check): it goes on working...
        await made.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      } finally {
        await made.end();
      }
      expect((await runCli(['status'], { DATABASE_URL: url })).code).toBe(exitCodes.ok);
      // ...until a character it cannot hold comes, which is told as such (it said "This is a bug").
      const dir = tempFolder('tl-latin-');
      const file = `${dir}/tx.csv`;
      writeFileSync(file, 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n2024-01-02 10:00:00 UTC,,,1.5,BTC,,,,,,Gift from 李,\n');
      const imported = await runCli(['import', 'transactions', file, '--wallet', 'ledger-nano'], { DATABASE_URL: url });
      expect(imported.stderr).toContain('PostgreSQL cannot store a character in this database\'s encoding (22P05');
      expect(imported.stderr).toContain('tradeledger needs a UTF8 database');
      expect(imported.code).toBe(exitCodes.database);
    } finally {
      await onDatabase(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
