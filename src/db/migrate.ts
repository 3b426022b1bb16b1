import type pg from 'pg';
import { createClient } from './pools.js';
import { TradeledgerError } from '../errors.js';
import { databaseError } from './databaseError.js';
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
    await client.query(`SELECT pg_advisory_lock(${lockKey})`);
    await client.query(createTable);
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
  return client;
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
    const msg = err instanceof Error ? err.message : String(err);
    throw new TradeledgerError('MIGRATION_FAILED', `migration sql/migrations/${file.fileName} failed and was rolled back: ${msg}`, {
      kind: 'database', hint: 'Fix the SQL in that file (it was not applied, so it may still be edited) and run `tradeledger db migrate` again.', cause: err,
    });
  }
}
