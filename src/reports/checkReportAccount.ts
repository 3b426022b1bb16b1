import type pg from 'pg';
import { TradeledgerError } from '../errors.js';

/**
 * Refuses a report for an account the database does not know ('' means every account), naming
 * the accounts it does know, so a typo never produces a folder of empty CSVs.
 *
 * @example
 * await checkReportAccount(client, '12345'); // throws: no account "12345" ... known: 100001 (main), ...
 */
export async function checkReportAccount(client: pg.ClientBase, account: string): Promise<void> {
  if (account === '') return;
  const { rows } = await client.query<{ uid: string; name: string | null }>('SELECT uid, name FROM accounts ORDER BY uid');
  if (rows.some((r) => r.uid === account)) return;
  const byName = rows.find((r) => r.name === account);
  const known = rows.map((r) => (r.name ? `${r.uid} (${r.name})` : r.uid)).join(', ');
  throw new TradeledgerError('REPORT_UNKNOWN_ACCOUNT', `no account with UID "${account}" in the database; nothing was written`, {
    kind: 'config',
    details: { account },
    hint: byName !== undefined
      ? `--account takes the UID: use --account ${byName.uid} for "${account}".`
      : rows.length === 0 ? 'No account has been synced yet: run `tradeledger sync` first.' : `Use one of: ${known}.`,
  });
}
