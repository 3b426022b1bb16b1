import { createPool } from '../db/pools.js';
import { databaseOn } from '../db/databaseOn.js';
import { readAccountHealth } from '../portal/accountHealth.js';
import { rankedWarnings } from '../portal/accountWarnings.js';
import type { AccountWarning } from '../portal/accountWarnings.js';

/** One account's warnings, ranked as the portal ranks them. */
export interface AccountWarnings {
  account: string;
  name: string;
  warnings: AccountWarning[];
}

/**
 * Every synced account's and imported wallet's warnings, most serious for a tax figure first
 * (src/portal/accountWarnings.ts): what `tradeledger status` prints under "warnings".
 *
 * @example
 * const byAccount = await statusWarnings(url);
 */
export async function statusWarnings(databaseUrl: string): Promise<AccountWarnings[]> {
  const pool = createPool({ url: databaseUrl, name: 'status-warnings', max: 3 });
  try {
    const [health, accounts, wallets] = await Promise.all([
      readAccountHealth(pool),
      databaseOn(pool).selectFrom('accounts').select(['uid', 'name']).orderBy('name').orderBy('uid').execute(),
      pool.query<{ wallet: string }>('SELECT DISTINCT wallet FROM imported_transactions ORDER BY wallet'),
    ]);
    const out: AccountWarnings[] = [];
    const empty = { uid: '', lastSync: null, watermark: null, streams: 0, failedStreams: [], gaps: [], flaggedRecords: 0, unclassifiedRows: 0, unpricedRows: 0, unpricedFiat: 'USD', reconciliationDifferences: 0, openingBalances: 0, unsettledRecords: 0, overdueRecords: 0, unsettledSince: null, disposalsWithoutCost: 0 };
    for (const a of accounts) out.push({ account: a.uid, name: a.name, warnings: rankedWarnings(health.get(a.uid) ?? { ...empty, uid: a.uid }, { imported: false }) });
    for (const w of wallets.rows) if (health.has(w.wallet)) out.push({ account: w.wallet, name: `${w.wallet} (imported)`, warnings: rankedWarnings(health.get(w.wallet)!, { imported: true }) });
    return out;
  } finally {
    await pool.end();
  }
}

/**
 * The warnings as text: per account the red ones (they change a tax figure) first, then amber
 * (to complete), then info (no tax figure changes).
 *
 * @example
 * process.stdout.write(statusWarningsText(await statusWarnings(url)));
 */
export function statusWarningsText(byAccount: readonly AccountWarnings[]): string {
  const lines = ['warnings, by what they do to a tax figure (red: changes one; amber: to complete; info: none):'];
  for (const a of byAccount) {
    if (a.warnings.length === 0) { lines.push(`  ${a.name}: none`); continue; }
    lines.push(`  ${a.name}:`);
    for (const w of a.warnings) lines.push(`    ${w.severity.padEnd(5)} ${w.text}${w.fix ? ` Fix: ${w.fix}.` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
