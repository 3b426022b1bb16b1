import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { bindNamedParameters } from './bindNamedParameters.js';
import { checkReportAccount } from './checkReportAccount.js';
import { reportOutput } from './reportOutput.js';
import { defaultReportsDir } from './runReports.js';
import { streamQueryToCsv } from './streamQueryToCsv.js';

/** The classes of the reconciliation view (sql/schema/views/reconciliation.sql), most serious first. */
export const reconciliationStatuses = ['unexplained', 'opening_balance', 'no_snapshot', 'match'] as const;
export type ReconciliationStatus = (typeof reconciliationStatuses)[number];

/** The first exchange record from which the exchange's running balance and the ledger's part. */
export interface PartingRecord {
  at: string;
  source: string;
  recordId: string;
  kind: string | null;
  change: string | null;
  exchangeBalance: string;
  ledgerBalance: string;
}

/** One account, wallet and coin of reconciliation.csv (amounts as exact decimal text). */
export interface ReconciliationRow {
  account: string;
  wallet: string;
  coin: string;
  status: ReconciliationStatus;
  exchangeBalance: string | null;
  exchangeAt: string | null;
  exchangeSource: string | null;
  ledgerBalance: string;
  ledgerRows: number;
  difference: string | null;
  openingBalance: string | null;
  parted: PartingRecord | null;
  explanation: string;
}

/** Rows by status, for a summary line. */
export type ReconciliationCounts = Record<ReconciliationStatus, number>;

async function reportQuery(name: string, account: string, reportsDir: string) {
  const text = await readFile(path.join(reportsDir, `${name}.sql`), 'utf8');
  // reconciliation.sql and opening-balances.sql check the whole copy: the period is unused.
  return bindNamedParameters(text, { from: '1970-01-01', to: '1970-01-02', tz: 'UTC', account });
}

/**
 * Reads reports/reconciliation.sql (the same rows reconciliation.csv holds) for one account, or
 * '' for every account. An account the database does not know is refused.
 *
 * @example
 * const rows = await readReconciliation(client, '1000000001');
 * rows.filter((r) => r.status === 'unexplained').map((r) => r.parted?.recordId);
 */
export async function readReconciliation(client: pg.ClientBase, account: string, reportsDir = defaultReportsDir): Promise<ReconciliationRow[]> {
  await checkReportAccount(client, account);
  const q = await reportQuery('reconciliation', account, reportsDir);
  const { rows } = await client.query<Record<string, string | null>>(q);
  return rows.map((r) => ({
    account: r.account_uid!, wallet: r.wallet!, coin: r.coin!, status: r.status as ReconciliationStatus,
    exchangeBalance: r.exchange_balance ?? null, exchangeAt: r.snapshot_at ?? null, exchangeSource: r.snapshot_source ?? null,
    ledgerBalance: r.ledger_balance ?? '0', ledgerRows: Number(r.ledger_rows ?? 0), difference: r.difference ?? null,
    openingBalance: r.opening_balance ?? null,
    parted: r.parted_at ? {
      at: r.parted_at, source: r.parted_source!, recordId: r.parted_record_id!, kind: r.parted_kind ?? null, change: r.parted_change ?? null,
      exchangeBalance: r.parted_exchange_balance!, ledgerBalance: r.parted_ledger_balance!,
    } : null,
    explanation: r.explanation!,
  }));
}

/**
 * Counts rows per status.
 *
 * @example
 * reconciliationCounts(rows).unexplained // 1
 */
export function reconciliationCounts(rows: readonly ReconciliationRow[]): ReconciliationCounts {
  const out = Object.fromEntries(reconciliationStatuses.map((s) => [s, 0])) as ReconciliationCounts;
  for (const r of rows) out[r.status] += 1;
  return out;
}

/**
 * The reconciliation as text for a terminal: a summary line, then one line per account, wallet
 * and coin (exchange, ledger, difference, status), each non-matching one followed by its
 * explanation. Unexplained rows come first.
 *
 * @example
 * process.stdout.write(reconciliationText(rows));
 */
export function reconciliationText(rows: readonly ReconciliationRow[]): string {
  const c = reconciliationCounts(rows);
  const lines = [`${rows.length} balance(s): ${c.match} match, ${c.opening_balance} opening balance, ${c.unexplained} unexplained, ${c.no_snapshot} without an exchange figure`];
  const rank = (s: ReconciliationStatus) => reconciliationStatuses.indexOf(s);
  const sorted = [...rows].sort((a, b) => rank(a.status) - rank(b.status) || a.account.localeCompare(b.account) || a.wallet.localeCompare(b.wallet) || a.coin.localeCompare(b.coin));
  lines.push(`${'account/wallet/coin'.padEnd(36)} ${'exchange'.padStart(20)} ${'ledger'.padStart(20)} ${'difference'.padStart(20)}  status`);
  for (const r of sorted) {
    lines.push(`${`${r.account}/${r.wallet}/${r.coin}`.padEnd(36)} ${(r.exchangeBalance ?? '-').padStart(20)} ${r.ledgerBalance.padStart(20)} ${(r.difference ?? '-').padStart(20)}  ${r.status}`);
    if (r.status !== 'match') lines.push(`    ${r.explanation}`);
  }
  if (c.opening_balance > 0) lines.push(`${c.opening_balance} opening balance(s) have no known cost: write opening-balances.csv with --out DIR, fill its Net Worth columns, then \`tradeledger import transactions opening-balances.csv --wallet opening-balances\``);
  return `${lines.join('\n')}\n`;
}

/** An account with unexplained balances whose sub-accounts (seen in its sub-account list) are not synced. */
export interface UnsyncedSubAccounts {
  account: string;
  unexplained: number;
  subAccounts: string[];
}

/**
 * The accounts among `rows` with unexplained balances that have sub-accounts this database does
 * not sync (sub_account_snapshots, less accounts). A transfer a sub-account initiated is listed in
 * that sub-account's own transfer history only (spec E19: "Only records where the caller is the
 * initiator are returned"), so its account's ledger lacks it and reconciliation finds the balance
 * unexplained until the sub-account is synced too (docs/ledger.md, Reconciliation).
 *
 * @example
 * for (const u of await unsyncedSubAccounts(client, rows)) console.log(u.account, u.subAccounts);
 */
export async function unsyncedSubAccounts(client: pg.ClientBase, rows: readonly ReconciliationRow[]): Promise<UnsyncedSubAccounts[]> {
  const unexplained = new Map<string, number>();
  for (const r of rows) if (r.status === 'unexplained') unexplained.set(r.account, (unexplained.get(r.account) ?? 0) + 1);
  if (unexplained.size === 0) return [];
  const { rows: subs } = await client.query<{ main_uid: string; subs: string[] }>(
    `SELECT s.main_uid, array_agg(DISTINCT s.sub_account_uid ORDER BY s.sub_account_uid) AS subs
     FROM sub_account_snapshots s
     WHERE s.main_uid = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.uid = s.sub_account_uid)
     GROUP BY s.main_uid ORDER BY s.main_uid`, [[...unexplained.keys()]]);
  return subs.map((x) => ({ account: x.main_uid, unexplained: unexplained.get(x.main_uid)!, subAccounts: x.subs }));
}

/**
 * The notes `tradeledger reconcile` prints for {@link unsyncedSubAccounts}, one per account.
 *
 * @example
 * unsyncedSubAccountsNotes([{ account: '100', unexplained: 2, subAccounts: ['101'] }])[0]; // '2 unexplained balance(s) of account 100, ...'
 */
export function unsyncedSubAccountsNotes(accounts: readonly UnsyncedSubAccounts[]): string[] {
  return accounts.map((u) => `${u.unexplained} unexplained balance(s) of account ${u.account}, whose sub-account(s) ${u.subAccounts.join(', ')} `
    + 'are not synced: a transfer a sub-account initiated is in its own history only, so this ledger may lack it. '
    + 'Add them under "subAccounts" in the config (README), sync, and run reconcile again.');
}

/**
 * Writes reconciliation.csv and opening-balances.csv (the Koinly-format template of the implied
 * opening balances, reports/opening-balances.sql) into `outDir`; existing files only with `force`.
 *
 * @example
 * const { openingLines } = await writeReconciliationFiles(client, '', 'out/recon', false);
 */
export async function writeReconciliationFiles(client: pg.Client, account: string, outDir: string, force: boolean, reportsDir = defaultReportsDir): Promise<{ dir: string; reconciliationRows: number; openingLines: number }> {
  await checkReportAccount(client, account);
  const files = ['reconciliation.csv', 'opening-balances.csv'] as const;
  const out = await reportOutput(outDir, files, force);
  try {
    const recon = await streamQueryToCsv(client, await reportQuery('reconciliation', account, reportsDir), out.temporary(files[0]), { flags: 'wx' });
    const opening = await streamQueryToCsv(client, await reportQuery('opening-balances', account, reportsDir), out.temporary(files[1]), { flags: 'wx' });
    await out.commit();
    return { dir: out.dir, reconciliationRows: recon.rows, openingLines: opening.rows };
  } catch (err) {
    await out.discard();
    throw err;
  }
}
