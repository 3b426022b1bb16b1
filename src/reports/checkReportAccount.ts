import type pg from 'pg';
import { databaseOn } from '../db/databaseOn.js';
import { TradeledgerError } from '../errors.js';

/**
 * Refuses a report for an account the database does not know ('' means every account): neither a
 * synced account's UID nor the wallet name of imported transactions. Names the ones it does know,
 * so a typo never produces a folder of empty CSVs.
 *
 * @example
 * await checkReportAccount(client, '12345'); // throws: no account "12345" ... known: 100001 (main), ...
 */
export async function checkReportAccount(client: pg.ClientBase | pg.Pool, account: string): Promise<void> {
  if (account === '') return;
  const rows = await databaseOn(client).selectFrom('accounts').select(['uid', 'name']).orderBy('uid').execute();
  if (rows.some((r) => r.uid === account)) return;
  const wallets = (await client.query<{ wallet: string }>('SELECT DISTINCT wallet FROM imported_transactions ORDER BY wallet')).rows.map((r) => r.wallet);
  if (wallets.includes(account)) return;
  const byName = rows.find((r) => r.name === account);
  const known = [...rows.map((r) => (r.name ? `${r.uid} (${r.name})` : r.uid)), ...wallets.map((w) => `${w} (imported wallet)`)].join(', ');
  throw new TradeledgerError('REPORT_UNKNOWN_ACCOUNT', `no account with UID "${account}" and no imported wallet of that name in the database; nothing was written`, {
    kind: 'config',
    details: { account },
    hint: byName !== undefined
      ? `--account takes the UID: use --account ${byName.uid} for "${account}".`
      : rows.length === 0 && wallets.length === 0 ? 'Nothing has been synced or imported yet: run `tradeledger sync` or `tradeledger import transactions` first.' : `Use one of: ${known}.`,
  });
}
