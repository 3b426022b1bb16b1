import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/** One Koinly-style row, as tradeledger import transactions stores it. */
export interface ImportedRow {
  ts: string;
  sent?: [string, string];
  received?: [string, string];
  fee?: [string, string];
  netWorth?: [string, string];
  label?: string;
}

/**
 * Puts rows straight into imported_transactions (and their imported_files row) for runner tests
 * that do not go through the CSV reader.
 *
 * @example
 * await insertImported(db, 'ledger-x', [{ ts: '2024-01-01T12:00:00Z', sent: ['100', 'GBP'], received: ['1', 'BTC'], netWorth: ['100', 'GBP'] }]);
 */
export async function insertImported(db: Kysely<any>, wallet: string, rows: ImportedRow[]): Promise<void> {
  const sha = `${wallet}-${Math.random().toString(16).slice(2)}`;
  await sql`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES (${sha}, 'transactions', ${`${wallet}.csv`}, ${wallet}, ${rows.length})`.execute(db);
  for (const [i, r] of rows.entries()) {
    await sql`INSERT INTO imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount, received_currency,
                fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, raw)
              VALUES (${sha}, ${i + 2}, ${wallet}, ${r.ts}::timestamptz, ${r.sent?.[0] ?? null}::numeric, ${r.sent?.[1] ?? null},
                ${r.received?.[0] ?? null}::numeric, ${r.received?.[1] ?? null}, ${r.fee?.[0] ?? null}::numeric, ${r.fee?.[1] ?? null},
                ${r.netWorth?.[0] ?? null}::numeric, ${r.netWorth?.[1] ?? null}, ${r.label ?? null}, '{}'::jsonb)`.execute(db);
  }
}
