import { createClient } from './pools.js';
import { TradeledgerError } from '../errors.js';
import { databaseError } from './databaseError.js';
import { migrationStatus } from './migrate.js';
import { sqlIdentifier } from './sqlText.js';
import type { MigrateOptions } from './migrate.js';
import type { MigrationPlan } from './migrationPlan.js';

/** What `tradeledger db status` reports about a database. */
export interface DatabaseStatus {
  serverVersion: string;
  database: string;
  /** Applied and pending migrations, or undefined when the history was refused (see `migrationProblem`). */
  migrations: MigrationPlan | undefined;
  /** Why the migration history was refused (a changed or missing applied file). */
  migrationProblem: TradeledgerError | undefined;
  /** Exact row count of every table in the public schema, by name. */
  tables: { name: string; rows: string }[];
}

/**
 * Reads the server version, the migration state and exact row counts. A rewritten migration
 * history is reported in `migrationProblem` instead of thrown, so status still shows the rest.
 *
 * @example
 * const s = await databaseStatus(url);
 * console.log(s.serverVersion, s.migrations?.pending.length);
 */
export async function databaseStatus(url: string, options: MigrateOptions = {}): Promise<DatabaseStatus> {
  const client = createClient({ url, name: 'status' });
  try {
    await client.connect();
  } catch (err) {
    throw databaseError(err, url);
  }
  try {
    const info = await client.query<{ v: string; d: string }>('SELECT current_setting(\'server_version\') AS v, current_database() AS d');
    const names = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    );
    const tables: DatabaseStatus['tables'] = [];
    for (const { name } of names.rows) {
      const res = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${sqlIdentifier(name)}`);
      tables.push({ name, rows: res.rows[0]?.n ?? '0' });
    }
    let migrations: MigrationPlan | undefined;
    let migrationProblem: TradeledgerError | undefined;
    try {
      migrations = await migrationStatus(url, options);
    } catch (err) {
      if (!(err instanceof TradeledgerError)) throw err;
      migrationProblem = err;
    }
    return { serverVersion: info.rows[0]?.v ?? '?', database: info.rows[0]?.d ?? '?', migrations, migrationProblem, tables };
  } finally {
    await client.end().catch(() => {});
  }
}
