import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from './pools.js';
import { databaseError } from './databaseError.js';
import { migrate } from './migrate.js';
import { migrationFiles } from './migrationFiles.js';
import { TradeledgerError } from '../errors.js';
import { schemaFiles, schemaReferenceMajor, type RenderedSchema } from './schemaFiles.js';

/** The project's `sql/schema/` folder and `docs/schema.md`, found from this file. */
export const defaultSchemaDir = fileURLToPath(new URL('../../sql/schema/', import.meta.url));
export const defaultDictionaryPath = fileURLToPath(new URL('../../docs/schema.md', import.meta.url));

/**
 * Renders the schema of an already migrated database (see {@link schemaFiles}).
 *
 * @example
 * const rendered = await renderMigratedSchema(url);
 */
export async function renderMigratedSchema(url: string): Promise<RenderedSchema> {
  const client = createClient({ url, name: 'schema' });
  try {
    await client.connect();
  } catch (err) {
    throw databaseError(err, url);
  }
  try {
    return await schemaFiles(client, await migrationFiles());
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Migrates a scratch database on the server of `url` from nothing, renders its schema, and
 * drops it again: what `npm run schema` writes, independent of the data in `url`'s database.
 *
 * @example
 * const rendered = await renderFreshSchema(url);
 */
export async function renderFreshSchema(url: string): Promise<RenderedSchema> {
  const name = `tradeledger_schema_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = createClient({ url, name: 'schema' });
    try {
      await c.connect();
      await c.query(sql);
    } catch (err) {
      throw databaseError(err, url, `create or drop a scratch database (${name}) on`);
    } finally {
      await c.end().catch(() => {});
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    await migrate(scratch.toString());
    return await renderMigratedSchema(scratch.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/** A file whose committed text is not what the migrations give. */
export interface SchemaDrift {
  path: string;
  problem: 'missing' | 'stale' | 'differs';
}

/**
 * Compares a rendering with the committed `sql/schema/` and `docs/schema.md`.
 *
 * @example
 * const drift = await schemaDrift(await renderMigratedSchema(url)); // [] when current
 */
export async function schemaDrift(rendered: RenderedSchema, dir = defaultSchemaDir, dictionaryPath = defaultDictionaryPath): Promise<SchemaDrift[]> {
  const drift: SchemaDrift[] = [];
  // On another major only the set of views can be compared: their deparsed text differs.
  const exact = (path: string) => rendered.serverMajor === schemaReferenceMajor || !path.startsWith('views/');
  const wanted = new Map(rendered.files.map((f) => [f.path, f.text]));
  wanted.set(relative(dir, dictionaryPath), rendered.dictionary);
  for (const [path, text] of wanted) {
    const have = await readFile(join(dir, path), 'utf8').catch(() => undefined);
    if (have === undefined) drift.push({ path, problem: 'missing' });
    else if (have !== text && exact(path)) drift.push({ path, problem: 'differs' });
  }
  for (const path of await listFiles(dir)) if (!wanted.has(path)) drift.push({ path, problem: 'stale' });
  return drift;
}

/**
 * Writes a rendering into `sql/schema/` (removing files of objects that no longer exist) and
 * `docs/schema.md`.
 *
 * @example
 * await writeSchema(await renderFreshSchema(url));
 */
export async function writeSchema(rendered: RenderedSchema, dir = defaultSchemaDir, dictionaryPath = defaultDictionaryPath): Promise<number> {
  if (rendered.serverMajor !== schemaReferenceMajor) {
    throw new TradeledgerError('SCHEMA_SERVER_VERSION', `sql/schema/ is rendered on PostgreSQL ${schemaReferenceMajor}, and this server is PostgreSQL ${rendered.serverMajor} (its views print differently)`, {
      kind: 'config', hint: `Point DATABASE_URL at a PostgreSQL ${schemaReferenceMajor} server, e.g. DATABASE_URL=postgresql://127.0.0.1:5432/test npm run schema, or use --check, which compares what it can.`,
    });
  }
  await rm(dir, { recursive: true, force: true });
  for (const f of rendered.files) {
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), f.text);
  }
  await writeFile(dictionaryPath, rendered.dictionary);
  return rendered.files.length;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...await listFiles(dir, path));
    else out.push(path);
  }
  return out;
}
