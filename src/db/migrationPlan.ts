import { TradeledgerError } from '../errors.js';
import type { MigrationFile } from './migrationFiles.js';

/** A row of `schema_migrations`. */
export interface AppliedMigration {
  version: number;
  name: string;
  sha256: string;
  appliedAt: Date;
}

/** What the database has, and what is left to apply. */
export interface MigrationPlan {
  applied: AppliedMigration[];
  pending: MigrationFile[];
}

const neverEdit = 'Never edit or delete a shipped migration; restore the file as it was and add a new numbered migration with the change.';

/**
 * Compares the applied migrations with the files and refuses any history that was rewritten:
 * an applied file that changed, was renamed or is missing, or a new file numbered below one
 * already applied.
 *
 * @example
 * const { pending } = migrationPlan(appliedRows, await migrationFiles());
 */
export function migrationPlan(applied: AppliedMigration[], files: MigrationFile[]): MigrationPlan {
  const byVersion = new Map(files.map((f) => [f.version, f]));
  // Migrations past this install's newest file: a newer tradeledger migrated the database (an
  // operator upgraded the scheduler's copy; this is an older one), not a file deleted by hand.
  const newest = files.reduce((max, f) => Math.max(max, f.version), 0);
  const ahead = applied.filter((a) => a.version > newest).sort((x, y) => x.version - y.version);
  if (ahead.length > 0) {
    const names = ahead.map((a) => `${String(a.version).padStart(4, '0')}_${a.name}`);
    const known = files.find((f) => f.version === newest)?.fileName.replace(/\.sql$/, '') ?? 'none';
    throw new TradeledgerError('MIGRATION_MISSING',
      `this database was migrated by a newer tradeledger: it has migration${ahead.length === 1 ? '' : 's'} ${names.join(', ')}, and this install knows migrations up to ${known}; nothing was read or changed`,
      { kind: 'database', hint: 'Upgrade this tradeledger to the version that migrated the database (the one your scheduled sync runs), then run the command again; an older tradeledger never reads or writes a newer database.' });
  }
  for (const a of applied) {
    const file = byVersion.get(a.version);
    const label = `${String(a.version).padStart(4, '0')}_${a.name}.sql`;
    if (!file) {
      throw new TradeledgerError('MIGRATION_MISSING', `migration sql/migrations/${label} was applied to this database but the file is missing`, { kind: 'database', hint: neverEdit });
    }
    if (file.name !== a.name || file.sha256 !== a.sha256) {
      throw new TradeledgerError('MIGRATION_CHANGED', `migration sql/migrations/${file.fileName} changed after it was applied (applied as ${label}, sha256 ${a.sha256.slice(0, 12)}…, now ${file.sha256.slice(0, 12)}…)`, { kind: 'database', hint: neverEdit });
    }
  }
  const done = new Set(applied.map((a) => a.version));
  const latest = applied.reduce((max, a) => Math.max(max, a.version), 0);
  const pending = files.filter((f) => !done.has(f.version));
  const early = pending.find((f) => f.version < latest);
  if (early) {
    throw new TradeledgerError('MIGRATION_ORDER', `migration sql/migrations/${early.fileName} is numbered below ${latest}, which this database already has`, {
      kind: 'database', hint: 'Renumber the new file above every shipped migration.',
    });
  }
  return { applied, pending };
}
