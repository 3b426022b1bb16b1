import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import type { SyncOptions } from '../../src/extract/syncOptions.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { testSyncOptions } from '../support/testSync.js';

/** The spot fills path (X2), the stream these tests feed odd pages to. */
export const fillsPath = '/api/v2/spot/trade/fills';

/**
 * Sync options for the main account's spot fills only, through `baseUrl` (a proxy), with a page
 * limit the test sandbox's fills fill several times over.
 */
export function fillsOnly(sandbox: RunningSandbox, db: Kysely<any>, baseUrl: string): SyncOptions {
  const main = sandboxAccounts(sandbox.accounts).find((a) => a.kind === 'main')!;
  return testSyncOptions(sandbox, db, [], { baseUrl, accounts: [main], sync: { streams: ['spotFills'] }, client: { ...testSyncOptions(sandbox, db).client, maxRetries: 2 } });
}

/** The main account's uid. */
export function mainUid(sandbox: RunningSandbox): string {
  return sandboxAccounts(sandbox.accounts).find((a) => a.kind === 'main')!.uid!;
}

/** The spot-fill differences between the database and the ground truth (empty = equal). */
export async function fillDifferences(sandbox: RunningSandbox, db: Kysely<any>): Promise<string[]> {
  const { differences } = await diffAgainstTruth(sandbox, db, [mainUid(sandbox)]);
  return differences.filter((d) => d.startsWith('spotFills '));
}

/** The sync_state status of the main account's spot fills, and whether its watermark is set. */
export async function fillsState(db: Kysely<any>): Promise<{ status: string; watermark: Date | null } | undefined> {
  const { rows } = await sql<{ status: string; watermark: Date | null }>`SELECT status, watermark FROM sync_state WHERE stream = 'spotFills'`.execute(db);
  return rows[0];
}
