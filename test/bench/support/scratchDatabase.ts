import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../../src/db/migrate.js';
import { withDefaultUser } from '../../../src/db/withDefaultUser.js';

/** A migrated database of a benchmark's own, dropped by `drop()`. */
export interface ScratchDatabase {
  readonly url: string;
  /** Runs one query on the scratch database and returns its rows. */
  query<R>(text: string): Promise<R[]>;
  drop(): Promise<void>;
}

/**
 * Creates and migrates a uniquely named database on BENCH_DATABASE_URL (default: the
 * PostgreSQL 15 service at 127.0.0.1:5432), so a benchmark never touches anyone else's data.
 *
 * @example
 * const scratch = await scratchDatabase('firstsync');
 * try { ... scratch.url ... } finally { await scratch.drop(); }
 */
export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  const adminUrl = withDefaultUser(process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');
  const name = `tl_bench_${label}_${randomBytes(4).toString('hex')}`;
  // BENCH_DB_LOCALE=C: the database's default collation is C (from template0), to measure what
  // collation-aware text comparison costs against the server's default (C.UTF-8 here).
  const locale = process.env.BENCH_DB_LOCALE;
  if (locale !== undefined && !/^[A-Za-z0-9_.@-]+$/.test(locale)) throw new Error(`BENCH_DB_LOCALE "${locale}" is not a locale name; use e.g. C`);
  await onAdmin(adminUrl, `CREATE DATABASE "${name}"${locale ? ` TEMPLATE template0 LC_COLLATE '${locale}' LC_CTYPE 'C.UTF-8'` : ''}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migrate(url);
  const query = async <R>(text: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows as R[];
    } finally {
      await client.end();
    }
  };
  return { url, query, drop: () => onAdmin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function onAdmin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
