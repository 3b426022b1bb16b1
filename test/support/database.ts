import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { createDb } from '../../src/db/createDb.js';
import { migrate } from '../../src/db/migrate.js';
import { migrationFiles } from '../../src/db/migrationFiles.js';

/** A database of its own for one test file. */
export interface FreshDatabase {
  url: string;
  db: Kysely<any>;
  /** Closes the pool and drops the database. Call it in afterAll. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named, fully migrated database on the server of the current vitest
 * project (`service`: the PostgreSQL 15 service; `embedded`: the embedded server). The
 * migrations run once per sql/ version into a template database, then each test database is a
 * copy of it: fast, and still exactly what `db migrate` produces.
 *
 * @example
 * let fresh: FreshDatabase;
 * beforeAll(async () => { fresh = await freshDatabase(); });
 * afterAll(async () => { await fresh.drop(); });
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const adminUrl = inject('databaseUrl');
  const name = `tl_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const clone = async () => {
    const template = await migratedTemplate(adminUrl);
    await onAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  };
  await clone().catch(async (err: { code?: string }) => {
    // A day-old template may have been swept by another run: build it again, once.
    if (err.code !== '3D000') throw err;
    templates.delete(adminUrl);
    await clone();
  });
  const url = withDatabase(adminUrl, name);
  await migrate(url); // verifies the copy against sql/ (and applies nothing)
  const db = createDb(url, { name: 'test', maxConnections: 5 });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await onAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * An empty database (no migrations) on the current project's server, for tests of the
 * migrator itself.
 *
 * @example
 * const { url, drop } = await emptyDatabase();
 */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('databaseUrl');
  const name = `tl_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => onAdmin(adminUrl, async (c) => { await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); }),
  };
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const templates = new Map<string, Promise<string>>();

function migratedTemplate(adminUrl: string): Promise<string> {
  let found = templates.get(adminUrl);
  if (!found) {
    found = buildTemplate(adminUrl);
    found.catch(() => templates.delete(adminUrl));
    templates.set(adminUrl, found);
  }
  return found;
}

async function buildTemplate(adminUrl: string): Promise<string> {
  const files = await migrationFiles();
  const hash = createHash('sha256').update(files.map((f) => `${f.fileName}:${f.sha256}`).join('\n')).digest('hex').slice(0, 16);
  const template = `tl_tpl_${hash}`;
  return onAdmin(adminUrl, async (c) => {
    // Workers and parallel runs build a template at most once: they queue on this lock.
    await c.query(`SELECT pg_advisory_lock(hashtext('tradeledger.test-template'))`);
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount) return template;
    const building = `tl_build_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await c.query(`CREATE DATABASE "${building}"`);
    try {
      await migrate(withDatabase(adminUrl, building));
      await renameWhenIdle(c, building, template);
    } catch (err) {
      await c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`).catch(() => {});
      throw err;
    }
    await c.query(`COMMENT ON DATABASE "${template}" IS '${new Date().toISOString()}'`);
    return template;
  });
}

async function renameWhenIdle(c: pg.Client, from: string, to: string): Promise<void> {
  // The migrator's backend may still be exiting after its client closed.
  for (let attempt = 0; ; attempt++) {
    try {
      await c.query(`ALTER DATABASE "${from}" RENAME TO "${to}"`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function onAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'tradeledger test admin' });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}
