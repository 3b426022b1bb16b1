import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMigratedSchema, schemaDrift } from '../../src/db/renderSchema.js';
import { schemaReferenceMajor, type RenderedSchema } from '../../src/db/schemaFiles.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';

// sql/schema/ says what the schema is; the migrations say why it changed. This keeps the first
// honest: a migration without `npm run schema`, or a hand edit of a generated file, fails here.
describe('sql/schema/ and docs/schema.md', () => {
  let fresh: FreshDatabase;
  let rendered: RenderedSchema;
  beforeAll(async () => {
    fresh = await freshDatabase();
    rendered = await renderMigratedSchema(fresh.url);
  });
  afterAll(async () => { await fresh.drop(); });

  it('are exactly what a freshly migrated database gives (run `npm run schema` when this fails)', async (context) => {
    // Another major renders the same schema in other words (PostgreSQL 18 names NOT NULL
    // constraints, for one); the files are written from the reference major, which CI runs.
    if (rendered.serverMajor !== schemaReferenceMajor) context.skip(`sql/schema/ is rendered from PostgreSQL ${schemaReferenceMajor}; this server is ${rendered.serverMajor}`);
    expect(await schemaDrift(rendered)).toEqual([]);
  });

  it('have one file per table, view and function, each naming the migrations that shaped it', () => {
    const paths = rendered.files.map((f) => f.path);
    expect(paths).toContain('views/ledger.sql');
    expect(paths).toContain('functions/ledger_valued.sql');
    expect(paths).toContain('tables/spot_fills.sql');
    const ledger = rendered.files.find((f) => f.path === 'views/ledger.sql')!.text;
    expect(ledger).toMatch(/^-- View ledger/);
    expect(ledger).toContain('sql/migrations/0011_ledger.sql');
    expect(ledger).toContain('CREATE VIEW ledger AS');
  });

  describe('drift is caught', () => {
    let copy: string;
    // A copy rendered on this server (so it matches on any major), then planted defects.
    beforeAll(async () => {
      copy = await mkdtemp(join(tmpdir(), 'tl-schema-'));
      for (const f of rendered.files) {
        await mkdir(dirname(join(copy, 'sql/schema', f.path)), { recursive: true });
        await writeFile(join(copy, 'sql/schema', f.path), f.text);
      }
      await mkdir(join(copy, 'docs'));
      await writeFile(join(copy, 'docs/schema.md'), rendered.dictionary);
    });
    afterAll(async () => { await rm(copy, { recursive: true, force: true }); });

    it('an edited, a missing and a leftover file are each named', async () => {
      const dir = join(copy, 'sql/schema');
      const dictionary = join(copy, 'docs/schema.md');
      expect(await schemaDrift(rendered, dir, dictionary)).toEqual([]);
      await writeFile(join(dir, 'views/ledger.sql'), 'CREATE VIEW ledger AS SELECT 1;\n');
      await rm(join(dir, 'tables/deposits.sql'));
      await writeFile(join(dir, 'tables/spot_fills.sql'), '-- edited by hand\n');
      await writeFile(join(dir, 'views/gone.sql'), '-- a view no migration makes\n');
      await writeFile(dictionary, '# stale\n');
      // As if read on the reference major, so that the edited view is compared too.
      const drift = await schemaDrift({ ...rendered, serverMajor: schemaReferenceMajor }, dir, dictionary);
      expect(drift).toEqual(expect.arrayContaining([
        { path: 'views/ledger.sql', problem: 'differs' },
        { path: 'tables/deposits.sql', problem: 'missing' },
        { path: 'views/gone.sql', problem: 'stale' },
        { path: 'tables/spot_fills.sql', problem: 'differs' },
        { path: '../../docs/schema.md', problem: 'differs' },
      ]));
      expect(drift).toHaveLength(5);
    });
  });
});
