import type { Kysely } from 'kysely';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { TradeledgerError } from '../errors.js';
import { withTransaction } from '../db/withTransaction.js';
import { badInput } from './badInput.js';
import { csvStream } from './csvRows.js';
import type { FileSource } from './fileSource.js';
import { fileText, type FileDigest } from './fileText.js';
import { koinlyLineReader, SAME_LINE_HINT, type KoinlyTransaction } from './koinlyTransactions.js';

/** A few examples of something the run reports, and how many there are in all. */
export interface Examples<T> {
  readonly count: number;
  readonly examples: readonly T[];
}

/** What a transactions import did. `already` is set when this very file was imported before. */
export interface TransactionsImportResult {
  /** Data lines in the file. */
  readonly transactions: number;
  readonly inserted: number;
  /** Lines the wallet already held (the same content, from any file): not stored again. */
  readonly skipped: number;
  readonly wallet: string;
  readonly already: { readonly importedAt: string; readonly wallet: string } | null;
  /** TxHashes on more than one line of this file. */
  readonly repeatedTxHashes: Examples<{ readonly txHash: string; readonly lines: readonly number[] }>;
  /** New lines whose TxHash the wallet already had from an earlier import (on a line that differs). */
  readonly txHashesInWallet: Examples<{ readonly line: number; readonly txHash: string }>;
}

// Staged lines are sent to PostgreSQL in pieces of about this many characters (a few thousand
// lines): memory holds one piece, whatever the file's size.
const BATCH_CHARS = 512 * 1024;
const EXAMPLES = 3;

/**
 * Imports a Koinly universal CSV as the transactions of one wallet, streamed: the file is read
 * in chunks and its lines are checked and staged in batches in one transaction, so memory does
 * not grow with the file. Nothing is stored unless every line is good (a bad line anywhere
 * rolls it all back and the error names line and column). A line's identity is its content
 * within the wallet (imported_transactions.line_key, sql/migrations/0064): a line the wallet
 * already holds, from this file or any other, is skipped and counted; repeated TxHashes are
 * reported. They join the ledger with account_uid = wallet = the wallet name.
 *
 * @example
 * const r = await importTransactions(db, await fileSource('coinbase.csv'), 'coinbase'); // r.inserted, r.skipped
 */
export async function importTransactions(db: Kysely<any>, src: FileSource, wallet: string, now = new Date()): Promise<TransactionsImportResult> {
  checkWallet(wallet);
  return withTransaction(db, async ({ client }) => {
    await checkWalletClash(client, wallet);
    // Imports into one wallet take turns: "is this line already there?" must see the other's rows.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('tradeledger.import'), hashtext($1))`, [wallet]);
    // Staged with COPY (one stream for the whole file, written as lines are checked): the
    // cheapest way into PostgreSQL, and the key is computed there, once, by the same function
    // that keys the stored rows.
    await client.query(`CREATE TEMP TABLE import_lines (
        line int NOT NULL, ts timestamptz NOT NULL, sent_amount numeric, sent_currency text, received_amount numeric,
        received_currency text, fee_amount numeric, fee_currency text, net_worth_amount numeric, net_worth_currency text,
        label text, description text, tx_hash text, raw jsonb NOT NULL,
        k text GENERATED ALWAYS AS (imported_line_key(ts, sent_amount, sent_currency, received_amount, received_currency, fee_amount,
          fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash)) STORED) ON COMMIT DROP`);
    const out: { digest?: FileDigest } = {};
    const copy = client.query(copyFrom(`COPY import_lines (line, ts, sent_amount, sent_currency, received_amount, received_currency,
      fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw) FROM STDIN`));
    // A lost connection fails the COPY at any moment, also while a line is being read: kept
    // here (an unheard 'error' event would crash the process) and thrown at the next step.
    let failed: unknown;
    copy.on('error', (err) => { failed ??= err; });
    // A socket that closes under the COPY ends the client but not always the COPY stream: without
    // this, a write waiting for 'drain' waited for ever and Node exited 13 with nothing said.
    const lost = () => {
      const err = new Error('Connection terminated unexpectedly while staging the file\'s lines');
      failed ??= err;
      copy.destroy(err);
    };
    client.once('end', lost);
    const drained = () => new Promise<void>((resolve, reject) => {
      if (failed !== undefined || copy.destroyed) { reject(failed ?? new Error('the COPY stream closed')); return; }
      const done = (err?: unknown) => { copy.off('drain', done).off('close', done); err === undefined && !copy.destroyed ? resolve() : reject(failed ?? err ?? new Error('the COPY stream closed')); };
      copy.on('drain', done).on('close', done);
    });
    let read: ((row: { line: number; fields: readonly string[] }) => KoinlyTransaction) | undefined;
    let buf = '';
    let transactions = 0;
    try {
      for await (const row of csvStream(src.name, fileText(src, out))) {
        if (!read) {
          read = koinlyLineReader(src.name, row.fields, now);
          continue;
        }
        buf += copyLine(read(row));
        transactions++;
        if (buf.length >= BATCH_CHARS) {
          if (failed !== undefined) throw failed;
          const more = copy.write(buf);
          buf = '';
          if (!more) await drained();
        }
      }
      if (failed !== undefined) throw failed;
      copy.end(buf);
      await finished(copy);
    } catch (err) {
      // A refused line must not leave the COPY waiting for more: failing it makes the server end it.
      copy.destroy();
      await finished(copy).catch(() => {});
      throw err;
    } finally {
      client.off('end', lost);
    }
    const sha256 = out.digest!.sha256();

    // The same content twice in one file: two lines the ledger could not tell apart.
    const twice = await client.query<{ line: number; first: number }>(
      `SELECT max(line) FILTER (WHERE n = 2) AS line, min(line) AS first
       FROM (SELECT k, line, row_number() OVER (PARTITION BY k ORDER BY line) AS n
             FROM import_lines WHERE k IN (SELECT k FROM import_lines GROUP BY k HAVING count(*) > 1)) x
       GROUP BY k ORDER BY 1 LIMIT 1`);
    if (twice.rows[0]) throw badInput({ file: src.name, line: twice.rows[0].line }, `the same transaction as line ${twice.rows[0].first}`, SAME_LINE_HINT);

    const before = await client.query<{ imported_at: Date; wallet: string | null }>('SELECT imported_at, wallet FROM imported_files WHERE sha256 = $1', [sha256]);
    const none = { count: 0, examples: [] };
    if (before.rows[0]) {
      return { transactions, inserted: 0, skipped: transactions, wallet, repeatedTxHashes: none, txHashesInWallet: none,
        already: { importedAt: before.rows[0].imported_at.toISOString(), wallet: before.rows[0].wallet ?? '' } };
    }
    const repeated = await client.query<{ tx_hash: string; lines: number[]; total: string }>(
      `SELECT tx_hash, (array_agg(line ORDER BY line))[1:5] AS lines, count(*) OVER () AS total
       FROM import_lines WHERE tx_hash IS NOT NULL GROUP BY tx_hash HAVING count(*) > 1 ORDER BY min(line) LIMIT ${EXAMPLES}`);
    const known = await client.query<{ line: number; tx_hash: string; total: string }>(
      `SELECT s.line, s.tx_hash, count(*) OVER () AS total FROM import_lines s
       WHERE s.tx_hash IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM imported_transactions t WHERE t.wallet = $1 AND t.line_key = s.k)
         AND EXISTS (SELECT 1 FROM imported_transactions t WHERE t.wallet = $1 AND t.tx_hash = s.tx_hash)
       ORDER BY s.line LIMIT ${EXAMPLES}`, [wallet]);
    await client.query(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ($1, 'transactions', $2, $3, $4)`,
      [sha256, src.name, wallet, transactions]);
    const r = await client.query(
      `INSERT INTO imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount,
         received_currency, fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw)
       SELECT $1, s.line, $2, s.ts, s.sent_amount, s.sent_currency, s.received_amount, s.received_currency, s.fee_amount,
              s.fee_currency, s.net_worth_amount, s.net_worth_currency, s.label, s.description, s.tx_hash, s.raw
       FROM import_lines s
       WHERE NOT EXISTS (SELECT 1 FROM imported_transactions t WHERE t.wallet = $2 AND t.line_key = s.k)`, [sha256, wallet]);
    const inserted = r.rowCount ?? 0;
    return {
      transactions, inserted, skipped: transactions - inserted, wallet, already: null,
      repeatedTxHashes: { count: Number(repeated.rows[0]?.total ?? 0), examples: repeated.rows.map((x) => ({ txHash: x.tx_hash, lines: x.lines })) },
      txHashesInWallet: { count: Number(known.rows[0]?.total ?? 0), examples: known.rows.map((x) => ({ line: x.line, txHash: x.tx_hash })) },
    };
  });
}

/** One line of COPY's text format: tab-separated, \N for NULL, backslash escapes. */
function copyLine(t: KoinlyTransaction): string {
  return `${t.line}\t${t.ts}\t${c(t.sentAmount)}\t${c(t.sentCurrency)}\t${c(t.receivedAmount)}\t${c(t.receivedCurrency)}\t${c(t.feeAmount)}\t${c(t.feeCurrency)}\t${
    c(t.netWorthAmount)}\t${c(t.netWorthCurrency)}\t${c(t.label)}\t${c(t.description)}\t${c(t.txHash)}\t${c(JSON.stringify(t.raw))}\n`;
}

const SPECIAL = /[\\\t\n\r]/;
function c(v: string | null): string {
  if (v === null) return '\\N';
  return SPECIAL.test(v) ? v.replace(/[\\\t\n\r]/g, (ch) => (ch === '\\' ? '\\\\' : ch === '\t' ? '\\t' : ch === '\n' ? '\\n' : '\\r')) : v;
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

// --account NAME selects a wallet or an exchange account: a wallet named like an account (its
// UID or its name, in any case) would mix the two in every report and portal grant.
async function checkWalletClash(client: pg.PoolClient, wallet: string): Promise<void> {
  const { rows } = await client.query<{ uid: string; name: string }>(
    'SELECT uid, name FROM accounts WHERE lower(uid) = lower($1) OR lower(name) = lower($1) ORDER BY uid LIMIT 1', [wallet]);
  if (rows[0]) {
    const what = rows[0].uid.toLowerCase() === wallet.toLowerCase() ? 'the UID' : 'the name';
    throw new TradeledgerError('IMPORT_BAD_WALLET', `wallet name '${wallet}' is ${what} of exchange account ${rows[0].uid} (${rows[0].name})`, {
      kind: 'config', hint: 'Give the wallet a name no exchange account has, e.g. --wallet coinbase-wallet.',
    });
  }
}
