import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseStatus } from '../../src/db/databaseStatus.js';
import { migrate } from '../../src/db/migrate.js';
import { emptyDatabase } from '../support/database.js';

describe('databaseStatus', () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tl-status-'));
    await writeFile(join(dir, '0001_things.sql'), "CREATE TABLE things (id int); INSERT INTO things SELECT generate_series(1, 3);");
    database = await emptyDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists pending migrations before migrate, then applied ones and exact row counts', async () => {
    const before = await databaseStatus(database.url, { dir });
    expect(before.migrations?.pending.map((m) => m.fileName)).toEqual(['0001_things.sql']);
    expect(before.tables).toEqual([]);
    await migrate(database.url, { dir });
    await writeFile(join(dir, '0002_more.sql'), 'SELECT 1;');
    const after = await databaseStatus(database.url, { dir });
    expect(after.serverVersion).toMatch(/^\d+(\.\d+)?/);
    expect(after.migrations?.applied.map((m) => m.name)).toEqual(['things']);
    expect(after.migrations?.pending.map((m) => m.fileName)).toEqual(['0002_more.sql']);
    expect(after.tables).toEqual([{ name: 'schema_migrations', rows: '1' }, { name: 'things', rows: '3' }]);
  });

  it('reports a rewritten migration history instead of failing', async () => {
    await writeFile(join(dir, '0001_things.sql'), 'CREATE TABLE things (id bigint);');
    const s = await databaseStatus(database.url, { dir });
    expect(s.migrations).toBeUndefined();
    expect(s.migrationProblem?.code).toBe('MIGRATION_CHANGED');
    expect(s.tables.map((t) => t.name)).toEqual(['schema_migrations', 'things']);
  });
});
