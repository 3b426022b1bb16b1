import type pg from 'pg';
import { reconciliationStatusSql } from '../db/accountHealthCounts.js';
import type { ReportPeriod } from './reportPeriod.js';
import type { ReportFormat } from './reportFormats.js';
import type { FormatCoverage } from './formatCoverage.js';
import type { DemoNote } from './demoAccounts.js';

/** One written CSV, as listed in the manifest. */
export interface ManifestFile {
  file: string;
  /** The query that made it, relative to the project: reports/<name>.sql. */
  query: string;
  rows: number;
  bytes: number;
  sha256: string;
  /**
   * Text cells that started like a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR) and were
   * written with a leading `'` so no spreadsheet runs them (CSV injection; see spreadsheetSafeCell).
   */
  neutralisedCells: number;
  /**
   * How many corrections in force (ledger_corrections, sql/migrations/0067_ledger_corrections.sql; `tradeledger classify`) the file
   * reflects: those on ledger rows of its period and account that its query reads.
   */
  corrections?: number;
}

/** manifest.json: what was asked, what was written, and how complete the data behind it is. */
export interface ReportManifest {
  generatedAt: string;
  parameters: {
    format: ReportFormat;
    from: string;
    to: string;
    tz: string;
    /** '' means every account. */
    account: string;
    /** The fiat currency of valued-ledger.csv and the tax tools' value columns. */
    fiat: string;
    /** Demo-trading rows asked for in the tax-tool files (`--include-demo`). */
    includeDemo: boolean;
    /** The period's bounds as instants, from inclusive, to exclusive. */
    fromUtc: string;
    toUtc: string;
  };
  files: ManifestFile[];
  /** Which accounts and wallets the files cover, and how own-account movements were written. */
  coverage: FormatCoverage;
  /** The demo-trading (paper) accounts, why each is one, and what this format did with their rows. */
  demo: DemoNote;
  /** Each stream's sync watermark: everything before it had been read when the report ran. */
  watermarks: { account: string; stream: string; partition: string; watermark: string | null; status: string; updatedAt: string }[];
  /** History the exchange would not serve (history_gaps). */
  gaps: { account: string; stream: string; partition: string; from: string; to: string; reason: string }[];
  /** Counts of the reconciliation view's statuses (match, opening_balance, unexplained, no_snapshot; sql/schema/views/reconciliation.sql). */
  reconciliation: Record<string, number>;
}

const iso = (value: unknown): string => new Date(String(value)).toISOString();

/**
 * Reads the sync bookkeeping a manifest reports: watermarks, known gaps and the reconciliation
 * summary, for one account or all ('').
 *
 * @example
 * const { watermarks, gaps, reconciliation } = await manifestFacts(client, '');
 */
export async function manifestFacts(client: pg.ClientBase, account: string): Promise<Pick<ReportManifest, 'watermarks' | 'gaps' | 'reconciliation'>> {
  const state = await client.query(
    `SELECT account_uid, stream, partition, watermark::text AS watermark, status, updated_at::text AS updated_at
     FROM sync_state WHERE $1 = '' OR account_uid = $1 ORDER BY account_uid, stream, partition`, [account]);
  const gaps = await client.query(
    `SELECT account_uid, stream, partition, gap_from::text AS gap_from, gap_to::text AS gap_to, reason
     FROM history_gaps WHERE $1 = '' OR account_uid = $1 ORDER BY account_uid, stream, partition, gap_from`, [account]);
  // The statuses as the reconciliation view gives them, without walking every bill to name where
  // balances part (reconciliationStatusSql: held equal to the view row for row by
  // test/db/reconciliationStatus.test.ts): 21 s -> ~4 s at 1M synced records.
  const recon = await client.query(
    `SELECT status, count(*)::int AS n FROM (${reconciliationStatusSql}) r WHERE $1 = '' OR account_uid = $1 GROUP BY status ORDER BY status`, [account]);
  return {
    watermarks: state.rows.map((r) => ({
      account: r.account_uid, stream: r.stream, partition: r.partition,
      watermark: r.watermark === null ? null : iso(r.watermark), status: r.status, updatedAt: iso(r.updated_at),
    })),
    gaps: gaps.rows.map((r) => ({
      account: r.account_uid, stream: r.stream, partition: r.partition, from: iso(r.gap_from), to: iso(r.gap_to), reason: r.reason,
    })),
    reconciliation: Object.fromEntries(recon.rows.map((r) => [r.status as string, r.n as number])),
  };
}
