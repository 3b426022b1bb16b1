import type pg from 'pg';
import { formatNotes, type FormatNotes, type ReportFormat } from './reportFormats.js';

/**
 * What a format's file covers: the accounts and wallets with ledger rows in the period (demo-trading
 * rows only when the file holds them: native, or --include-demo), and the format's notes.
 */
export interface FormatCoverage extends FormatNotes {
  accounts: { account: string; wallets: string[] }[];
  /** Own-account movement legs of the period per coin (received - sent), from tax_transactions. */
  ownAccountNet: Record<string, string>;
}

/**
 * Reads which accounts and wallets a report covers and the net of its own-account movements, for
 * the manifest. Runs inside the report's transaction, so it agrees with the files.
 *
 * @example
 * const coverage = await formatCoverage(client, 'koinly', { fromUtc, toUtc, account: '' });
 */
export async function formatCoverage(
  client: pg.ClientBase, format: ReportFormat, period: { fromUtc: string; toUtc: string; account: string; includeDemo?: boolean },
): Promise<FormatCoverage> {
  const wallets = await client.query<{ account_uid: string; wallets: string[] }>(
    `SELECT account_uid, array_agg(DISTINCT wallet ORDER BY wallet) AS wallets FROM ledger
     WHERE ts >= $1 AND ts < $2 AND ($3 = '' OR account_uid = $3) AND ($4 OR NOT demo) GROUP BY account_uid ORDER BY account_uid`,
    [period.fromUtc, period.toUtc, period.account, period.includeDemo ?? false]);
  const own = await client.query<{ coin: string; net: string }>(
    `SELECT coalesce(sent_coin, received_coin) AS coin, money_text(sum(coalesce(received_amount, 0) - coalesce(sent_amount, 0))) AS net
     FROM tax_transactions($1, $2, $3, $4) WHERE own_account GROUP BY 1 ORDER BY 1`,
    [period.fromUtc, period.toUtc, period.account, period.includeDemo ?? false]);
  return {
    ...formatNotes(format),
    accounts: wallets.rows.map((r) => ({ account: r.account_uid, wallets: r.wallets })),
    ownAccountNet: Object.fromEntries(own.rows.map((r) => [r.coin, r.net])),
  };
}
