import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { finished, pipeline } from 'node:stream/promises';
import { TradeledgerError } from '../errors.js';
import { withTransaction } from '../db/withTransaction.js';
import { poolOf } from '../db/createDb.js';
import { sidecarClient } from '../db/pools.js';
import { textArrayLiteral } from '../db/sqlText.js';
import { analyzeAtRefreshTarget } from '../db/plannerStatistics.js';
import { badInput } from './badInput.js';
import { csvBatches } from './csvRows.js';
import type { FileSource } from './fileSource.js';
import { fileSha256, fileText, type FileDigest } from './fileText.js';
import { lineKey } from './lineKey.js';
import { koinlyLineReader, SAME_LINE_HINT, type KoinlyTransaction } from './koinlyTransactions.js';
import { RepeatWatch } from './repeatWatch.js';

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

// The new lines go to PostgreSQL in pieces of about BATCH_BYTES (a thousand lines or so, in a
// buffer with room for a few more), and a wallet that already holds lines is asked about a batch
// of about BATCH_CHARS at a time: memory holds a piece or two batches, whatever the file's size.
const BATCH_CHARS = 512 * 1024;
const BATCH_BYTES = 512 * 1024;
const PIECE_BYTES = BATCH_BYTES + 64 * 1024;
const EXAMPLES = 3;

const COPY_NEW = `COPY imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount, received_currency,
  fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw, line_key) FROM STDIN`;

/**
 * Imports a Koinly universal CSV as the transactions of one wallet, streamed: the file is read
 * in chunks and its lines are checked and stored through one COPY in one transaction, so
 * memory does not grow with the file. Nothing is stored unless every line is good (a bad line
 * anywhere rolls it all back and the error names line and column). A line's identity is its
 * content within the wallet (imported_transactions.line_key, sql/migrations/0064): a line the
 * wallet already holds, from this file or any other, is skipped and counted; repeated TxHashes
 * are reported. They join the ledger with account_uid = wallet = the wallet name.
 *
 * How (issue 24): the file's SHA-256 is read first, so each row can name its file as it goes;
 * each line's key is computed here (lineKey.ts: the text SQL's imported_line_key() gives) and
 * the new lines are COPY'd straight into imported_transactions while the next are read. When
 * the wallet held lines before, each batch's keys are looked up on a second connection (the
 * wallet's rows from before are committed, and imports into a wallet take turns), which also
 * keeps the skipped lines' number, key and TxHash; they join the transaction at the end, for
 * the checks of the whole file (the same content twice, TxHashes repeated).
 *
 * @example
 * const r = await importTransactions(db, await fileSource('coinbase.csv'), 'coinbase'); // r.inserted, r.skipped
 */
export async function importTransactions(db: Kysely<any>, src: FileSource, wallet: string, now = new Date(),
  onProgress?: (progress: ImportProgress) => void): Promise<TransactionsImportResult> {
  const r = await storeFile(db, src, wallet, now, onProgress ?? (() => undefined));
  // A large import leaves the planner's statistics of imported_transactions stale until
  // autovacuum comes by (never, where it is off): gains then read the valued ledger by a nested
  // loop of one index lookup per row, planned for a thousand rows (issue 24 item 5). A failure
  // here changes no data, so it is not the import's.
  // At the sync's reduced sample (analyzeAtRefreshTarget: 3,000 rows, not 30,000): the row
  // count and the few wallets and coins are what those plans need, and the default's sorts of
  // 30,000 hashes per key column cost 0.55-0.7 s after a 200,000-line import, against 0.05-0.06
  // (session 11). Autovacuum, where it runs, later replaces them with its own.
  if (r.inserted >= ANALYZE_FROM) {
    await db.transaction().execute((trx) => analyzeAtRefreshTarget((t) => sql.raw(t).execute(trx).then((q) => q.rows as Record<string, unknown>[]), ['imported_transactions']))
      .catch(() => undefined);
  }
  return r;
}

/**
 * How far an import is (the CLI's status line on a terminal): `reading` while the file's lines
 * are read, checked and stored (lines read so far), `checking` while the whole file is checked
 * (the same content twice, TxHashes repeated or already in the wallet).
 */
export interface ImportProgress {
  stage: 'reading' | 'checking';
  lines: number;
}

/** New lines from which an import refreshes the table's planner statistics. */
const ANALYZE_FROM = 10_000;

async function storeFile(db: Kysely<any>, src: FileSource, wallet: string, now: Date, onProgress: (progress: ImportProgress) => void): Promise<TransactionsImportResult> {
  checkWallet(wallet);
  return withTransaction(db, async ({ client }) => {
    await checkWalletClash(client, wallet);
    // Imports into one wallet take turns: "is this line already there?" must see the other's rows.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('tradeledger.import'), hashtext($1))`, [wallet]);
    const sha256 = await fileSha256(src);
    const before = await client.query<{ imported_at: Date; wallet: string | null }>('SELECT imported_at, wallet FROM imported_files WHERE sha256 = $1', [sha256]);
    const already = before.rows[0] ? { importedAt: before.rows[0].imported_at.toISOString(), wallet: before.rows[0].wallet ?? '' } : null;
    // A wallet that held no line before this import holds none of its lines: nothing to look up
    // (a line repeated within the file is found by the check of the whole file below).
    const lookUp = !already && (await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM imported_transactions WHERE wallet = $1) AS any', [wallet])).rows[0]!.any;
    // The file's lines that are not stored: all of them when the file was imported before.
    await client.query('CREATE TEMP TABLE import_lines (line int NOT NULL, k text NOT NULL, tx_hash text) ON COMMIT DROP');
    // The rows name their file (a foreign key): its row first, its line count once known.
    if (!already) await client.query(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ($1, 'transactions', $2, $3, 0)`, [sha256, src.name, wallet]);
    const lookup = lookUp ? await walletLookup(db, wallet) : null;
    try {
      const { transactions, inserted, mayRepeat } = await storeLines(client, src, { sha256, wallet, now, already: already !== null, lookup, onProgress });
      onProgress({ stage: 'checking', lines: transactions });
      if (lookup) await lookup.handOver(client);
      const lines = already ? '(SELECT line, k, tx_hash FROM import_lines)'
        : `(SELECT line, line_key AS k, tx_hash FROM imported_transactions WHERE file_sha256 = '${sha256.replace(/'/g, "''")}' UNION ALL SELECT line, k, tx_hash FROM import_lines)`;

      // Every line's key and TxHash went through storeLines' RepeatWatch: when neither can have
      // come twice, the check of the whole file could only answer "none", and is left out.
      const checks = mayRepeat.keys || (mayRepeat.txHashes && !already)
        ? await client.query<FileCheckRow>(fileChecksSql(lines, !already)) : { rows: [] as FileCheckRow[] };
      const twice = checks.rows.find((x) => x.kind === 'twice');
      if (twice) throw badInput({ file: src.name, line: twice.line }, `the same transaction as line ${twice.first}`, SAME_LINE_HINT);

      const none = { count: 0, examples: [] };
      if (already) return { transactions, inserted: 0, skipped: transactions, wallet, repeatedTxHashes: none, txHashesInWallet: none, already };
      const repeated = checks.rows.filter((x) => x.kind === 'repeated');
      // New lines whose TxHash the wallet held before this file (none when it held no line).
      const known = !lookUp ? { rows: [] } : await client.query<{ line: number; tx_hash: string; total: string }>(KNOWN_TX_HASHES_SQL, [wallet, sha256]);
      await client.query('UPDATE imported_files SET rows = $2 WHERE sha256 = $1', [sha256, transactions]);
      return {
        transactions, inserted, skipped: transactions - inserted, wallet, already: null,
        repeatedTxHashes: { count: Number(repeated[0]?.total ?? 0), examples: repeated.map((x) => ({ txHash: x.tx_hash!, lines: x.lines! })) },
        txHashesInWallet: { count: Number(known.rows[0]?.total ?? 0), examples: known.rows.map((x) => ({ line: x.line, txHash: x.tx_hash })) },
      };
    } finally {
      await lookup?.close();
    }
  });
}

/**
 * The new lines ($2: their file) whose TxHash the wallet ($1) already had from an earlier import:
 * the first EXAMPLES of them by line, and how many in all. One pass over the wallet's lines,
 * grouped by TxHash: there is no index on TxHash (sql/migrations/0079 dropped it; filling it cost
 * every imported line more than this pass costs an import), and a probe per line was quadratic
 * besides when one TxHash stands on thousands of lines (4.3-7.9 s against 0.2 s for 11,428 lines
 * into a wallet of 200,000). test/imports/fileChecks.test.ts holds it to the per-line form.
 */
export const KNOWN_TX_HASHES_SQL = `WITH hit AS (
  SELECT tx_hash, array_agg(line) FILTER (WHERE file_sha256 = $2) AS lines
  FROM imported_transactions WHERE wallet = $1 AND tx_hash IS NOT NULL
  GROUP BY tx_hash HAVING bool_or(file_sha256 = $2) AND bool_or(file_sha256 <> $2))
SELECT l.line, h.tx_hash, count(*) OVER () AS total FROM hit h, unnest(h.lines) AS l(line)
ORDER BY l.line LIMIT ${EXAMPLES}`;

/** A row of {@link fileChecksSql}: the first line repeating another's content, or a repeated TxHash. */
export interface FileCheckRow {
  kind: 'twice' | 'repeated';
  /** twice: the line that repeats an earlier one; repeated: the TxHash's first line. */
  line: number;
  /** twice: the earlier line it repeats. */
  first: number | null;
  tx_hash: string | null;
  /** repeated: the TxHash's first five lines. */
  lines: number[] | null;
  /** repeated: how many TxHashes are repeated in all. */
  total: string | null;
}

/**
 * The checks of a whole file, in one statement over its lines (`lines`: a subquery of line, k,
 * tx_hash): the same content twice (two lines the ledger could not tell apart: the one row of
 * kind 'twice', the earliest line that repeats another), and, when `repeatedTxHashes`, TxHashes on
 * more than one line (up to EXAMPLES rows of kind 'repeated', by first line). Each groups the lines
 * once by hash and sorts only the groups it reports: a sorted array_agg per key was half of the
 * two statements this replaces (issue 24; test/imports/fileChecks.test.ts holds it to them).
 */
export function fileChecksSql(lines: string, repeatedTxHashes: boolean): string {
  return `WITH lines AS MATERIALIZED ${lines},
   dup AS (SELECT k, min(line) AS first FROM lines GROUP BY k HAVING count(*) > 1),
   twice AS (SELECT min(l.line) AS line, d.first FROM dup d JOIN lines l ON l.k = d.k AND l.line > d.first
             GROUP BY d.k, d.first ORDER BY 1 LIMIT 1),
   rep AS (SELECT tx_hash, min(line) AS first, count(*) OVER () AS total FROM lines
           WHERE ${repeatedTxHashes ? 'tx_hash IS NOT NULL' : 'false'} GROUP BY tx_hash HAVING count(*) > 1 ORDER BY 2 LIMIT ${EXAMPLES})
   SELECT 'twice' AS kind, line, first, NULL::text AS tx_hash, NULL::int[] AS lines, NULL::bigint AS total FROM twice
   UNION ALL
   SELECT 'repeated', r.first, NULL, r.tx_hash, (array_agg(l.line ORDER BY l.line))[1:5], r.total
   FROM rep r JOIN lines l ON l.tx_hash = r.tx_hash GROUP BY r.tx_hash, r.first, r.total
   ORDER BY 1, 2`;
}

interface StoreOptions {
  readonly sha256: string;
  readonly wallet: string;
  readonly now: Date;
  /** The file was imported before: its lines are checked and kept in import_lines, none stored. */
  readonly already: boolean;
  readonly lookup: WalletLookup | null;
  readonly onProgress: (progress: ImportProgress) => void;
}

/**
 * Reads, checks and keys every line, and sends it through one COPY: a new line into
 * imported_transactions, a line of a file imported before into import_lines. With a lookup,
 * a batch's lines are held until the wallet has been asked about them (while the next batch is
 * read), and only those it lacks are sent.
 */
async function storeLines(client: pg.PoolClient, src: FileSource, o: StoreOptions): Promise<StoredLines> {
  const copy = client.query(copyFrom(o.already ? 'COPY import_lines (line, k, tx_hash) FROM STDIN' : COPY_NEW));
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
  // The piece being filled, in bytes: each line is written into it as UTF-8 as it comes. A
  // string of ~1,000 lines joined by += was a rope that Buffer.from flattened and encoded per
  // piece, at twice the CPU for the same bytes (issue 24).
  let piece = Buffer.allocUnsafe(PIECE_BYTES);
  let at = 0;
  let sent = false;
  let blocked = false; // the COPY stream asked for a wait until it drains
  const send = () => {
    if (at === 0) return;
    const full = piece.subarray(0, at);
    piece = Buffer.allocUnsafe(PIECE_BYTES);
    at = 0;
    sent = true;
    if (!copy.write(full)) blocked = true;
  };
  // add() keeps a line and says when a piece went out; only then is there something to await
  // (not a promise per line: issue 24).
  const add = (text: string): boolean => {
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair: 4 bytes for 2 units).
    if (at + 3 * text.length > piece.length) {
      send();
      if (3 * text.length > piece.length) piece = Buffer.allocUnsafe(3 * text.length); // a line longer than a piece
    }
    at += piece.write(text, at);
    if (at >= BATCH_BYTES) send();
    return sent;
  };
  const flush = async () => {
    sent = false;
    if (failed !== undefined) throw failed;
    if (blocked) {
      blocked = false;
      await drained();
    }
  };
  // With a lookup: the batch being read, and the one the wallet is being asked about.
  let batch: Batch = { lines: [], times: [], keys: [], txHashes: [], rows: [], chars: 0 };
  type Asked = { batch: Batch; held: Promise<Set<number>> };
  let asked = null as Asked | null;
  const settle = async () => {
    if (!asked) return;
    const { batch: b, held } = asked;
    asked = null;
    const skip = await held;
    for (let i = 0; i < b.lines.length; i++) {
      if (skip.has(b.lines[i]!)) continue;
      inserted++;
      if (add(b.rows[i]!)) await flush();
    }
  };
  const ask = async () => {
    await settle();
    const b = batch;
    batch = { lines: [], times: [], keys: [], txHashes: [], rows: [], chars: 0 };
    const held = o.lookup!.held(b);
    held.catch(() => {}); // awaited by the next settle
    asked = { batch: b, held };
  };

  const out: { digest?: FileDigest } = {};
  const prefix = `${c(o.sha256)}\t`;
  const walletCell = `\t${c(o.wallet)}\t`;
  let read: ((row: { line: number; fields: readonly string[] }) => KoinlyTransaction) | undefined;
  let transactions = 0;
  let inserted = 0;
  const keys = new RepeatWatch();
  const txHashes = new RepeatWatch();
  try {
    for await (const rows of csvBatches(src.name, fileText(src, out))) {
      for (const row of rows) {
        if (!read) {
          read = koinlyLineReader(src.name, row.fields, o.now);
          continue;
        }
        const t = read(row);
        const k = lineKey(t);
        transactions++;
        keys.addHex(k);
        if (!o.already && t.txHash !== null) txHashes.addText(t.txHash); // a file imported before is not checked for TxHashes
        if (o.already) {
          if (add(`${t.line}\t${k}\t${c(t.txHash)}\n`)) await flush();
          continue;
        }
        const text = `${prefix}${t.line}${walletCell}${copyFields(t)}\t${k}\n`;
        if (!o.lookup) {
          inserted++;
          if (add(text)) await flush();
          continue;
        }
        batch.lines.push(t.line);
        batch.times.push(t.ts);
        batch.keys.push(k);
        batch.txHashes.push(t.txHash);
        batch.rows.push(text);
        batch.chars += text.length;
        if (batch.chars >= BATCH_CHARS) await ask();
      }
      o.onProgress({ stage: 'reading', lines: transactions });
    }
    if (o.lookup) {
      await ask();
      await settle();
    }
    if (failed !== undefined) throw failed;
    send();
    copy.end();
    await finished(copy);
  } catch (err) {
    // A refused line must not leave the COPY waiting for more: failing it makes the server end it.
    copy.destroy();
    await finished(copy).catch(() => {});
    await asked?.held.catch(() => {});
    throw err;
  } finally {
    client.off('end', lost);
  }
  // The bytes read line by line must be the bytes hashed: a file rewritten meanwhile is refused.
  if (out.digest!.sha256() !== o.sha256) {
    throw new TradeledgerError('IMPORT_FILE_UNREADABLE', `${src.name} changed while it was being imported; nothing was imported`, {
      kind: 'config', hint: 'Import the file again once nothing is writing to it.',
    });
  }
  return { transactions, inserted, mayRepeat: { keys: keys.repeated, txHashes: txHashes.repeated } };
}

interface StoredLines {
  transactions: number;
  inserted: number;
  /** Whether some line's content or TxHash may be on an earlier line of the file (RepeatWatch: never false when one is). */
  mayRepeat: { keys: boolean; txHashes: boolean };
}

interface Batch {
  lines: number[];
  /** Each line's time (ISO text): the wallet's index is (wallet, ts, line_key), and a key fixes its time. */
  times: string[];
  keys: string[];
  txHashes: (string | null)[];
  rows: string[];
  chars: number;
}

interface WalletLookup {
  /** The lines of a batch whose key the wallet already holds (kept for {@link handOver}). */
  held(batch: Batch): Promise<Set<number>>;
  /** Copies the skipped lines into the import's import_lines. */
  handOver(client: pg.PoolClient): Promise<void>;
  close(): Promise<void>;
}

/**
 * Which lines of a batch the wallet already holds ($1 wallet; $2 lines, $3 keys, $4 TxHashes, $5
 * times, one element a line), kept in import_skipped. One index probe per key, as a subplan: a
 * semi-join would be planned by the table's statistics, and right after an import they are stale
 * (a hash of the whole wallet per batch). The probe gives the line's time too: the index is
 * (wallet, ts, line_key) (sql/migrations/0079), and the key is a hash of the line's fields, its
 * time among them, so the answer is the one the key alone gives.
 */
export const WALLET_HELD_SQL = `WITH held AS (
  SELECT u.line, u.k, u.tx_hash FROM unnest($2::int[], $3::text[], $4::text[], $5::timestamptz[]) AS u(line, k, tx_hash, ts)
  WHERE (SELECT true FROM imported_transactions t WHERE t.wallet = $1 AND t.ts = u.ts AND t.line_key = u.k LIMIT 1)),
kept AS (INSERT INTO import_skipped SELECT line, k, tx_hash FROM held)
SELECT line FROM held`;

/**
 * A second connection that asks whether the wallet holds a batch's keys. It sees the committed
 * rows only, which are exactly the wallet's rows from before this import (imports into one
 * wallet take turns under the advisory lock), and keeps the skipped lines in a temporary table
 * of its own, dropped with its transaction.
 */
async function walletLookup(db: Kysely<any>, wallet: string): Promise<WalletLookup> {
  const pool = poolOf(db);
  // The import holds one of the pool's connections; a pool of one cannot give a second.
  const own = (pool.options.max ?? 10) < 2 ? sidecarClient(pool, 'import-lookup') ?? null : null;
  const conn: pg.ClientBase = own ?? await pool.connect();
  let broken = false;
  try {
    if (own) await own.connect();
    await conn.query('BEGIN');
    await conn.query('CREATE TEMP TABLE import_skipped (line int NOT NULL, k text NOT NULL, tx_hash text) ON COMMIT DROP');
  } catch (err) {
    if (own) await own.end().catch(() => {}); else (conn as pg.PoolClient).release(true);
    throw err;
  }
  return {
    async held(b) {
      // The arrays as literals (textArrayLiteral: the bytes node-postgres would write, without its
      // two RegExp replaces per element).
      const r = await conn.query<{ line: number }>(WALLET_HELD_SQL,
        [wallet, textArrayLiteral(b.lines.map(String)), textArrayLiteral(b.keys), textArrayLiteral(b.txHashes), textArrayLiteral(b.times)])
        .catch((err: unknown) => { broken = true; throw err; });
      return new Set(r.rows.map((x) => x.line));
    },
    async handOver(client) {
      const { rows } = await conn.query<{ n: number }>('SELECT count(*)::int AS n FROM import_skipped');
      if (rows[0]!.n === 0) return;
      const from = conn.query(copyTo('COPY import_skipped (line, k, tx_hash) TO STDOUT'));
      const into = client.query(copyFrom('COPY import_lines (line, k, tx_hash) FROM STDIN'));
      await pipeline(from, into);
    },
    async close() {
      try {
        await conn.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (own) await own.end().catch(() => {}); else (conn as pg.PoolClient).release(broken);
    },
  };
}

/** A line's fields from ts to raw in COPY's text format: tab-separated, \\N for NULL, backslash escapes. */
/**
 * One new line as a row of COPY_NEW's text format (the bench test/bench/importLines.bench.ts
 * times it with the reading and checking).
 *
 * @example
 * copyRowText(sha256, 'coinbase', tx, lineKey(tx)); // 'ab12…\t2\tcoinbase\t2024-…\n'
 */
export function copyRowText(sha256: string, wallet: string, t: KoinlyTransaction, key: string): string {
  return `${c(sha256)}\t${t.line}\t${c(wallet)}\t${copyFields(t)}\t${key}\n`;
}

// Dates, amounts and currencies are checked to be ISO text, digits and tickers: nothing in them
// needs COPY's escapes (n: NULL or as is); free text and the raw JSON go through c.
function copyFields(t: KoinlyTransaction): string {
  return `${t.ts}\t${n(t.sentAmount)}\t${n(t.sentCurrency)}\t${n(t.receivedAmount)}\t${n(t.receivedCurrency)}\t${n(t.feeAmount)}\t${n(t.feeCurrency)}\t${
    n(t.netWorthAmount)}\t${n(t.netWorthCurrency)}\t${c(t.label)}\t${c(t.description)}\t${c(t.txHash)}\t${c(t.rawJson)}`;
}

function n(v: string | null): string {
  return v === null ? '\\N' : v;
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
