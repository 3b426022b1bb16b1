import type { Kysely } from 'kysely';
import { TradeledgerError } from '../errors.js';
import { withTransaction } from '../db/withTransaction.js';
import type { FileSource } from './fileSource.js';
import { koinlyTransactions } from './koinlyTransactions.js';

/** What a transactions import did. `already` is set when this very file was imported before. */
export interface TransactionsImportResult {
  readonly transactions: number;
  readonly inserted: number;
  readonly wallet: string;
  readonly already: { readonly importedAt: string; readonly wallet: string } | null;
}

/**
 * Imports a Koinly universal CSV as the transactions of one wallet: checks all of it first
 * (nothing is stored when any line is bad), then stores every line keyed by the file's SHA-256
 * and its line number. They join the ledger with account_uid = wallet = the wallet name. The same
 * file again changes nothing.
 *
 * @example
 * await importTransactions(db, await fileSource('coinbase.csv'), 'coinbase');
 */
export async function importTransactions(db: Kysely<any>, src: FileSource, wallet: string, now = new Date()): Promise<TransactionsImportResult> {
  checkWallet(wallet);
  const rows = koinlyTransactions(src.name, src.text, now);
  return withTransaction(db, async ({ client }) => {
    const file = await client.query(
      `INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ($1, 'transactions', $2, $3, $4)
       ON CONFLICT (sha256) DO NOTHING`, [src.sha256, src.name, wallet, rows.length]);
    if (file.rowCount === 0) {
      const before = await client.query<{ imported_at: Date; wallet: string | null }>('SELECT imported_at, wallet FROM imported_files WHERE sha256 = $1', [src.sha256]);
      return { transactions: rows.length, inserted: 0, wallet, already: { importedAt: before.rows[0]!.imported_at.toISOString(), wallet: before.rows[0]!.wallet ?? '' } };
    }
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    const r = await client.query(
      `INSERT INTO imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount,
         received_currency, fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw)
       SELECT $1, u.line, $2, u.ts::timestamptz, u.sa::numeric, u.sc, u.ra::numeric, u.rc, u.fa::numeric, u.fc, u.na::numeric, u.nc, u.label, u.descr, u.tx, u.raw::jsonb
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
         AS u(line, ts, sa, sc, ra, rc, fa, fc, na, nc, label, descr, tx, raw)
       ON CONFLICT (file_sha256, line) DO NOTHING`,
      [src.sha256, wallet, col('line'), col('ts'), col('sentAmount'), col('sentCurrency'), col('receivedAmount'), col('receivedCurrency'),
        col('feeAmount'), col('feeCurrency'), col('netWorthAmount'), col('netWorthCurrency'), col('label'), col('description'), col('txHash'),
        rows.map((x) => JSON.stringify(x.raw))]);
    return { transactions: rows.length, inserted: r.rowCount ?? 0, wallet, already: null };
  });
}

// The wallet name stands where an account UID does (account_uid, --account), so it must never
// look like one.
function checkWallet(wallet: string): void {
  if (!/^[A-Za-z][A-Za-z0-9 _.-]{0,63}$/.test(wallet)) {
    throw new TradeledgerError('IMPORT_BAD_WALLET', `wallet name '${wallet}' is not usable`, {
      kind: 'config', hint: 'Name the wallet with a letter first, then letters, digits, space, _ . or - (at most 64), e.g. --wallet coinbase.',
    });
  }
}
