// Issue 24: the importer computes each line's key (src/imports/lineKey.ts) instead of
// PostgreSQL's imported_line_key(); the two must give the same text for every line, or lines
// stored before (keys made by SQL) would no longer be recognised as already in their wallet.
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { freshDatabase, emptyDatabase, type FreshDatabase } from '../support/database.js';
import { koinlyTransactions, type KoinlyTransaction } from '../../src/imports/koinlyTransactions.js';
import { lineKey } from '../../src/imports/lineKey.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { migrate } from '../../src/db/migrate.js';
import { defaultMigrationsDir } from '../../src/db/migrationFiles.js';
import { createDb } from '../../src/db/createDb.js';
import { memoryFile } from '../support/memoryFile.js';

const now = new Date('2026-01-01T00:00:00Z');
const HEADER = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
// Lines whose fields stress the canonical text: quotes, backslashes, control characters and
// line breaks inside quoted fields, non-ASCII, long and zero-padded amounts, seconds and
// milliseconds, the first moment the importer accepts.
const AWKWARD = [
  '2024-05-01 10:00 UTC,0.123456789012345678,BTC,2000.50,usdt,1,USDT,1950.10,EUR,,"sold, at ""last""",0xff',
  '2024-05-02T11:30:15Z,,,7,$WIF,,,,,reward,,',
  '2024-05-02T11:30:15.5Z,,,007.000,ETH,0.000,ETH,0,USD,,back\\slash /slash,',
  '1970-01-01 00:00 UTC,,,1,BTC,,,,,,"tab\there, cr\r and lf\n inside",',
  `2024-06-01 00:00:59 UTC,${'9'.repeat(30)}.${'1'.repeat(30)},XRP,,,,,,,,"control \u0001\u001f\u0008\u000c del \u007f",`,
  '2024-06-02 00:00 UTC,,,1,BTC,,,,,Airdrop,"café ☕ 日本 🚀 \u2028 \u00a0",tx with spaces',
  '2024-06-03 00:00 UTC,,,.5,BTC,,,,,,"",',
  '2024-06-04 00:00 UTC,,,100,ADA,,,123456789012345678901234567890,USD,,  padded  ,  0xabc  ',
];
const text = `${HEADER}\n${AWKWARD.join('\n')}\n`;
const args = (t: KoinlyTransaction) => [t.ts, t.sentAmount, t.sentCurrency, t.receivedAmount, t.receivedCurrency, t.feeAmount, t.feeCurrency,
  t.netWorthAmount, t.netWorthCurrency, t.label, t.description, t.txHash];
const SQL_KEY = `SELECT imported_line_key($1::timestamptz, $2::numeric, $3, $4::numeric, $5, $6::numeric, $7, $8::numeric, $9, $10, $11, $12) AS k`;

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

describe('lineKey', () => {
  it('gives the text of SQL imported_line_key() for awkward lines', async () => {
    const rows = koinlyTransactions('awkward.csv', text, now);
    expect(rows).toHaveLength(AWKWARD.length);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      for (const t of rows) {
        const { rows: [r] } = await client.query<{ k: string }>(SQL_KEY, args(t));
        expect(lineKey(t), `line ${t.line}: ${JSON.stringify(t)}`).toBe(r!.k);
      }
    } finally {
      await client.end();
    }
  });

  it('is what a row inserted or updated without the importer gets (the trigger)', async () => {
    const [t] = koinlyTransactions('one.csv', `${HEADER}\n${AWKWARD[0]}\n`, now);
    await sql`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ('trigger-test', 'transactions', 'one.csv', 'by-hand', 1)`.execute(fresh.db);
    await sql`INSERT INTO imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount, received_currency,
      fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw)
      VALUES ('trigger-test', 2, 'by-hand', ${t!.ts}, ${t!.sentAmount}, ${t!.sentCurrency}, ${t!.receivedAmount}, ${t!.receivedCurrency}, ${t!.feeAmount},
        ${t!.feeCurrency}, ${t!.netWorthAmount}, ${t!.netWorthCurrency}, ${t!.label}, ${t!.description}, ${t!.txHash}, '{}')`.execute(fresh.db);
    const key = async () => (await sql<{ line_key: string }>`SELECT line_key FROM imported_transactions WHERE file_sha256 = 'trigger-test'`.execute(fresh.db)).rows[0]!.line_key;
    expect(await key()).toBe(lineKey(t!));
    await sql`UPDATE imported_transactions SET description = 'changed' WHERE file_sha256 = 'trigger-test'`.execute(fresh.db);
    expect(await key()).toBe(lineKey({ ...t!, description: 'changed' }));
  });
});

describe('a database upgraded by sql/migrations/0075', () => {
  it('still recognises the lines it imported before as already in their wallet', { timeout: 120_000 }, async () => {
    const empty = await emptyDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), 'tl-0074-'));
    const db = createDb(empty.url, { name: 'test', maxConnections: 2 });
    try {
      // The database as 0074 left it: line_key generated by SQL.
      for (const f of await readdir(defaultMigrationsDir)) {
        if (/^\d{4}_/.test(f) && Number(f.slice(0, 4)) <= 74) await copyFile(path.join(defaultMigrationsDir, f), path.join(dir, f));
      }
      await migrate(empty.url, { dir });
      const rows = koinlyTransactions('before.csv', text, now);
      await sql`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ('before', 'transactions', 'before.csv', 'old', ${rows.length})`.execute(db);
      for (const t of rows) {
        await sql`INSERT INTO imported_transactions (file_sha256, line, wallet, ts, sent_amount, sent_currency, received_amount, received_currency,
          fee_amount, fee_currency, net_worth_amount, net_worth_currency, label, description, tx_hash, raw)
          VALUES ('before', ${t.line}, 'old', ${t.ts}, ${t.sentAmount}, ${t.sentCurrency}, ${t.receivedAmount}, ${t.receivedCurrency}, ${t.feeAmount},
            ${t.feeCurrency}, ${t.netWorthAmount}, ${t.netWorthCurrency}, ${t.label}, ${t.description}, ${t.txHash}, ${t.rawJson})`.execute(db);
      }
      const keysBefore = (await sql<{ line_key: string }>`SELECT line_key FROM imported_transactions ORDER BY line`.execute(db)).rows;
      await migrate(empty.url);
      expect((await sql<{ line_key: string }>`SELECT line_key FROM imported_transactions ORDER BY line`.execute(db)).rows).toEqual(keysBefore);
      // The same lines in another file (a blank line at the end): every one skipped, nothing stored.
      const r = await importTransactions(db, memoryFile('again.csv', `${text}\n`), 'old', now);
      expect(r).toMatchObject({ transactions: AWKWARD.length, inserted: 0, skipped: AWKWARD.length, already: null });
      expect(Number((await sql<{ n: string }>`SELECT count(*) AS n FROM imported_transactions`.execute(db)).rows[0]!.n)).toBe(AWKWARD.length);
      // In another wallet they are new.
      expect((await importTransactions(db, memoryFile('elsewhere.csv', `${text}\n\n`), 'other', now)).inserted).toBe(AWKWARD.length);
    } finally {
      await db.destroy();
      await empty.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
