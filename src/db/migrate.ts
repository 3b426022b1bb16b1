import type pg from 'pg';
import { createClient } from './pools.js';
import { TradeledgerError } from '../errors.js';
import { sessionRefusal } from './connectionProblem.js';
import { databaseError } from './databaseError.js';
import { redactUrl } from './redactUrl.js';
import { sqlIdentifier } from './sqlText.js';
import { migrationFiles, defaultMigrationsDir } from './migrationFiles.js';
import type { MigrationFile } from './migrationFiles.js';
import { migrationPlan } from './migrationPlan.js';
import { refreshReaders } from './readerRoles.js';
import type { AppliedMigration, MigrationPlan } from './migrationPlan.js';

/** Options for {@link migrate} and {@link migrationStatus}. */
export interface MigrateOptions {
  /** Folder of `NNNN_name.sql` files; default the project's `sql/migrations/`. */
  dir?: string;
  /** Called once per applied file. */
  onApplied?: (file: MigrationFile) => void;
  /**
   * Told once, when another session has held the migration lock for `waitNoteMs` (default 10 s),
   * who holds it and what to do; default a line on stderr.
   */
  onWaiting?: (note: string) => void;
  waitNoteMs?: number;
}

// One fixed key: migrators on the same database wait for each other instead of racing.
const lockKey = "hashtext('tradeledger.migrate')";

const createTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer     PRIMARY KEY,
  name       text        NOT NULL,
  sha256     text        NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies the pending migrations in order, each in its own transaction, and records each in
 * `schema_migrations`. Safe to run from several processes at once (an advisory lock makes
 * them take turns). Refuses to run when an applied file changed or is missing.
 *
 * @example
 * const { pending } = await migrate(url); // pending: the files it just applied
 */
export async function migrate(url: string, options: MigrateOptions = {}): Promise<MigrationPlan> {
  const files = await migrationFiles(options.dir ?? defaultMigrationsDir);
  const client = await connect(url);
  try {
    await takeLock(client, options);
    // Made only when missing: a migrated database on a read-only session (a standby, or
    // default_transaction_read_only) then needs no write at all, and the reading commands work.
    const exists = await client.query<{ t: string | null; encoding: string; d: string }>(
      `SELECT to_regclass('schema_migrations')::text AS t, pg_encoding_to_char(encoding) AS encoding, current_database() AS d FROM pg_database WHERE datname = current_database()`);
    if (!exists.rows[0]?.t) {
      // A new database only: one already in use keeps working (its text so far fitted), and a
      // character it cannot hold is told as such when it comes (connectionProblem.ts, 22P05).
      const { encoding, d } = exists.rows[0]!;
      if (encoding !== 'UTF8') {
        throw new TradeledgerError('DB_ENCODING', `database ${sqlIdentifier(d)} is encoded ${encoding}, and tradeledger needs UTF8: the exchange's records and imported files hold any Unicode text (a coin's name, a description), which ${encoding} cannot`, {
          kind: 'database', hint: `Create the database as UTF8 (createdb --encoding=UTF8 --template=template0 NAME, or CREATE DATABASE NAME ENCODING 'UTF8' TEMPLATE template0) and point DATABASE_URL at it; nothing was changed.`,
        });
      }
      await client.query(createTable).catch(async (err: unknown) => { throw (await rightsRefused(client, err)) ?? err; });
    }
    const plan = migrationPlan(await appliedRows(client), files);
    for (const file of plan.pending) {
      await applyOne(client, file);
      options.onApplied?.(file);
    }
    // Analysts' read-only roles (tradeledger db reader) see the tables the files just added. The
    // tables' owner may always grant on them; should it fail all the same, the migration stands
    // and `db reader add` grants again.
    if (plan.pending.length > 0) await refreshReaders(client).catch(() => 0);
    return plan;
  } finally {
    await client.end().catch(() => {}); // ending the session also frees the advisory lock
  }
}

/**
 * Reads what is applied and what is pending, without changing anything. Throws the same
 * errors as {@link migrate} for rewritten history.
 *
 * @example
 * const { applied, pending } = await migrationStatus(url);
 */
export async function migrationStatus(url: string, options: MigrateOptions = {}): Promise<MigrationPlan> {
  const files = await migrationFiles(options.dir ?? defaultMigrationsDir);
  const client = await connect(url);
  try {
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
    const applied = exists.rows[0]?.t ? await appliedRows(client) : [];
    return migrationPlan(applied, files);
  } finally {
    await client.end().catch(() => {});
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = createClient({ url, name: 'migrate' }); // errors: reported through the failing query
  try {
    await client.connect();
  } catch (err) {
    throw databaseError(err, url);
  }
  try {
    const { rows: [v] } = await client.query<{ n: string; text: string }>(`SELECT current_setting('server_version_num') AS n, current_setting('server_version') AS text`);
    const tooOld = serverTooOld(Number(v!.n), v!.text, redactUrl(url));
    if (tooOld) throw tooOld;
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}

/** The oldest PostgreSQL major tradeledger runs on: the one CI tests (with 18 tried by hand). */
export const oldestServerMajor = 15;

/**
 * The refusal of a server older than {@link oldestServerMajor}, or undefined. Before 15 the public
 * schema lets every login create tables, so a `tradeledger db reader` login would not be
 * read-only (seen on 14.23: a reader's CREATE TABLE went through), and before 14 the migrations
 * fail part-way (`date_bin` is 14's). Every command checks it as it connects to migrate.
 *
 * @example
 * serverTooOld(140023, '14.23', 'postgres://ledger@db/ledger')?.code // 'DB_VERSION'
 */
export function serverTooOld(versionNum: number, versionText: string, where: string): TradeledgerError | undefined {
  if (!Number.isFinite(versionNum) || versionNum >= oldestServerMajor * 10_000) return undefined;
  return new TradeledgerError('DB_VERSION', `PostgreSQL ${versionText} at ${where} is older than tradeledger runs on (${oldestServerMajor} or newer); nothing was read or changed`, {
    kind: 'database',
    hint: `Upgrade that server to PostgreSQL ${oldestServerMajor} or newer (pg_upgrade, or your provider's major-version upgrade), or point DATABASE_URL at one, or unset DATABASE_URL to use the embedded PostgreSQL.`,
  });
}

async function appliedRows(client: pg.Client): Promise<AppliedMigration[]> {
  const res = await client.query<{ version: number; name: string; sha256: string; applied_at: Date }>(
    'SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY version',
  );
  return res.rows.map((r) => ({ version: r.version, name: r.name, sha256: r.sha256, appliedAt: r.applied_at }));
}

async function applyOne(client: pg.Client, file: MigrationFile): Promise<void> {
  try {
    await client.query('BEGIN');
    // No parameters: pg sends this as a simple query, which may hold many statements.
    await client.query(file.sql);
    await client.query('INSERT INTO schema_migrations (version, name, sha256) VALUES ($1, $2, $3)', [file.version, file.name, file.sha256]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    const refused = await rightsRefused(client, err);
    if (refused !== undefined) throw refused;
    const session = sessionRefusal(err);
    if (session !== undefined) {
      throw new TradeledgerError('MIGRATION_FAILED', `migration sql/migrations/${file.fileName} failed and was rolled back: ${session.message}`, { kind: 'database', hint: session.hint, cause: err });
    }
    const msg = err instanceof Error ? err.message : String(err);
    throw new TradeledgerError('MIGRATION_FAILED', `migration sql/migrations/${file.fileName} failed and was rolled back: ${msg}`, {
      kind: 'database', hint: 'Fix the SQL in that file (it was not applied, so it may still be edited) and run `tradeledger db migrate` again.', cause: err,
    });
  }
}

/**
 * A migration refused for the database user's rights (42501), for want of a schema to create in
 * (3F000), or by a read-only session (25006: a standby, default_transaction_read_only), as a TradeledgerError that names the user, the database and the fix; undefined for
 * any other failure. The commonest case: on PostgreSQL 15 and newer a database's public schema
 * takes new tables only from the database's owner, so a user given CONNECT alone is refused
 * `schema_migrations`, the first table. Nothing was applied either way (each file runs in a
 * transaction of its own).
 */
async function rightsRefused(client: pg.Client, err: unknown): Promise<TradeledgerError | undefined> {
  const code = (err as { code?: string } | null)?.code;
  if (code !== '42501' && code !== '3F000' && code !== '25006') return undefined;
  const pgMessage = err instanceof Error ? err.message : String(err);
  const who = await client.query<{ u: string; d: string; p: string }>(
    `SELECT current_user AS u, current_database() AS d, current_setting('search_path') AS p`).then((r) => r.rows[0], () => undefined);
  const user = who ? sqlIdentifier(who.u) : 'the database user';
  const database = who ? sqlIdentifier(who.d) : 'the database';
  if (code === '25006') {
    return new TradeledgerError('DB_READ_ONLY', `database ${database} is read-only for ${who ? `the database user ${user}` : user} (a standby server, or default_transaction_read_only is on), and it needs tradeledger's tables made or brought up to date: ${pgMessage}`, {
      kind: 'database', cause: err,
      hint: `Point DATABASE_URL at the primary server, or turn read-only off for this database (ALTER DATABASE ${database} SET default_transaction_read_only = off) and run the command again; nothing was changed. A standby of a primary tradeledger has already migrated serves status and reports as it is.`,
    });
  }
  if (code === '3F000') {
    return new TradeledgerError('DB_NO_RIGHTS', `no schema to create tradeledger's tables in database ${database}: ${pgMessage} (search_path is ${who?.p ?? 'unknown'})`, {
      kind: 'database', cause: err,
      hint: `Create the schema that search_path names, or set one that exists (as a superuser: ALTER ROLE ${user} SET search_path = public), or take the search_path option out of DATABASE_URL; nothing was changed.`,
    });
  }
  return new TradeledgerError('DB_NO_RIGHTS', `${who ? `the database user ${user}` : user} may not create or change tradeledger's tables in database ${database}: ${pgMessage}`, {
    kind: 'database', cause: err,
    hint: `PostgreSQL 15 and newer let only a database's owner create tables in its public schema. As a superuser, make the user its owner (ALTER DATABASE ${database} OWNER TO ${user}) or grant it (GRANT CREATE ON SCHEMA public TO ${user}); tables an earlier run made under another user need that user, or REASSIGN OWNED. Then run the command again; nothing was changed.`,
  });
}


/**
 * The migration lock, asked for again every 250 ms rather than waited for in one statement, so
 * that a wait that lasts is told with its holder. Every command takes the lock for a moment; one
 * held longer is a migration still running, or a session that kept it: behind a pooler in
 * transaction mode a session lock stays with a pooled server connection after its client has
 * gone, and the next command waited on pg_advisory_lock for ever, saying nothing (PgBouncer 1.18).
 */
async function takeLock(client: pg.Client, options: MigrateOptions): Promise<void> {
  const noteAfter = options.waitNoteMs ?? 10_000;
  const started = Date.now();
  let told = false;
  for (;;) {
    const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${lockKey}) AS ok`);
    if (rows[0]!.ok) return;
    if (!told && Date.now() - started >= noteAfter) {
      told = true;
      const note = await lockHolderNote(client);
      if (options.onWaiting) options.onWaiting(note);
      else process.stderr.write(`tradeledger: ${note}\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function lockHolderNote(client: pg.Client): Promise<string> {
  // A one-bigint advisory lock shows in pg_locks as its high 32 bits (classid) and low (objid).
  const { rows } = await client.query<{ pid: number; app: string; state: string | null; since: string | null; d: string }>(`
    SELECT a.pid, coalesce(nullif(a.application_name, ''), 'no application name') AS app, a.state,
           to_char(a.state_change AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS since, current_database() AS d
    FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND ((l.classid::bigint << 32) | l.objid::bigint) = ${lockKey}::bigint`).catch(() => ({ rows: [] }));
  const holder = rows[0];
  if (holder === undefined) return 'waiting for the database\'s migration lock, which another session holds (another tradeledger command is migrating, or has just finished)';
  return `waiting for the migration lock of database ${sqlIdentifier(holder.d)}, held by session ${holder.pid} (${holder.app}, ${holder.state ?? 'state unknown'} since ${holder.since ?? 'unknown'}). `
    + 'Every tradeledger command takes it for a moment. If no other one is running, that session kept it: behind a connection pooler in transaction mode '
    + `(PgBouncer pool_mode = transaction) a lock stays with a pooled connection, so use session pooling; or end the session: SELECT pg_terminate_backend(${holder.pid});`;
}
