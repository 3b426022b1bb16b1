import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrationFiles } from '../../src/db/migrationFiles.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

describe('freshDatabase', () => {
  let a: FreshDatabase;
  let b: FreshDatabase;
  beforeAll(async () => {
    [a, b] = await Promise.all([freshDatabase(), freshDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([a?.drop(), b?.drop()]);
  });

  it('gives a database with every migration in sql/ applied', async () => {
    const files = await migrationFiles();
    const rows = await a.db.selectFrom('schema_migrations').select(['version', 'sha256']).orderBy('version').execute();
    expect(rows).toEqual(files.map((f) => ({ version: f.version, sha256: f.sha256 })));
  });

  it('gives each caller its own database', async () => {
    expect(a.url).not.toEqual(b.url);
    await sql`CREATE TABLE only_in_a (x int)`.execute(a.db);
    const seen = await sql<{ t: string | null }>`SELECT to_regclass('only_in_a')::text AS t`.execute(b.db);
    expect(seen.rows[0]?.t).toBeNull();
  });

  it('drops the database', async () => {
    const extra = await freshDatabase();
    const name = new URL(extra.url).pathname.slice(1);
    await extra.drop();
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${name}`.execute(a.db);
    expect(left.rows[0]?.n).toBe(0);
  });
});
