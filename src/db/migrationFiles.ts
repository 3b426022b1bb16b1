import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TradeledgerError } from '../errors.js';

/** One numbered SQL file from `sql/migrations/`. */
export interface MigrationFile {
  version: number;
  /** File name without the number and `.sql`: `history_tables`. */
  name: string;
  fileName: string;
  sha256: string;
  sql: string;
}

/** The project's `sql/` folder, found from this file so any working directory works. */
export const defaultMigrationsDir = fileURLToPath(new URL('../../sql/migrations/', import.meta.url));

const pattern = /^(\d{4})_([A-Za-z0-9_]+)\.sql$/;

/**
 * Reads every `NNNN_name.sql` in a folder, sorted by number, with each file's SHA-256.
 * A `.sql` file with any other name, or two files with one number, is an error: the migrator
 * must never guess which file is meant.
 *
 * @example
 * const files = await migrationFiles(); // [{ version: 1, name: 'schema_migrations', ... }]
 */
export async function migrationFiles(dir: string = defaultMigrationsDir): Promise<MigrationFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw new TradeledgerError('MIGRATIONS_DIR', `cannot read the migrations folder ${dir}`, {
      kind: 'config', hint: 'Run tradeledger from an intact checkout; the sql/migrations/ folder ships with it.', cause: err,
    });
  }
  const files: MigrationFile[] = [];
  for (const fileName of names.filter((n) => n.endsWith('.sql')).sort()) {
    const m = pattern.exec(fileName);
    if (!m) {
      throw new TradeledgerError('MIGRATION_NAME', `sql/migrations/${fileName} is not named like a migration`, {
        kind: 'config', hint: 'Name migrations NNNN_name.sql (four digits, then letters, digits or _).',
      });
    }
    const sql = await readFile(join(dir, fileName), 'utf8');
    const sha256 = createHash('sha256').update(sql, 'utf8').digest('hex');
    files.push({ version: Number(m[1]), name: m[2]!, fileName, sha256, sql });
  }
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.version === files[i - 1]!.version) {
      throw new TradeledgerError('MIGRATION_DUPLICATE', `sql/migrations/${files[i - 1]!.fileName} and sql/migrations/${files[i]!.fileName} share number ${files[i]!.version}`, {
        kind: 'config', hint: 'Give the newer file the next free number.',
      });
    }
  }
  return files;
}
