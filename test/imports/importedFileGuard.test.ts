// sql/migrations/0076: imported_transactions' foreign key to imported_files became two
// statement-level checks (the per-row RI query was a fifth of an import's server time). No
// path may leave a line whose file is not in imported_files: an INSERT or a COPY naming an
// unknown file, an UPDATE of a line's file_sha256, a DELETE of a file row that has lines, an
// UPDATE of its sha256. Each is refused with foreign_key_violation and a message naming the
// file, and nothing of the statement stays; what the foreign key allowed still goes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { finished } from 'node:stream/promises';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { memoryFile } from '../support/memoryFile.js';

const HEADER = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
const now = new Date('2026-01-01T00:00:00Z');
const LINE = `INSERT INTO imported_transactions (file_sha256, line, wallet, ts, received_amount, received_currency, raw) VALUES ($1, $2, 'guard', '2024-01-01Z', 1, 'BTC', '{}')`;

let fresh: FreshDatabase;
let c: pg.Client;
beforeAll(async () => {
  fresh = await freshDatabase();
  c = new pg.Client({ connectionString: fresh.url });
  await c.connect();
});
afterAll(async () => {
  await c?.end();
  await fresh?.drop();
});
beforeEach(async () => {
  await c.query('DELETE FROM imported_transactions');
  await c.query('DELETE FROM imported_files');
  await c.query(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ('known', 'transactions', 'known.csv', 'guard', 1)`);
});

/** The error a statement fails with (it must fail), its transaction rolled back. */
async function refusal(run: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  await c.query('BEGIN');
  try {
    await run();
  } catch (err) {
    await c.query('ROLLBACK');
    return err as { code?: string; message: string };
  }
  await c.query('ROLLBACK');
  throw new Error('the statement was not refused');
}

const lines = async () => (await c.query<{ file_sha256: string; line: number }>('SELECT file_sha256, line FROM imported_transactions ORDER BY 1, 2')).rows;
const files = async () => (await c.query<{ sha256: string }>('SELECT sha256 FROM imported_files ORDER BY 1')).rows.map((r) => r.sha256);

describe('imported_transactions.file_sha256 names an imported_files row (sql/migrations/0076)', () => {
  it('refuses an INSERT naming a file imported_files does not hold, and keeps nothing of it', async () => {
    const err = await refusal(() => c.query(`INSERT INTO imported_transactions (file_sha256, line, wallet, ts, received_amount, received_currency, raw)
      VALUES ('known', 2, 'guard', '2024-01-01Z', 1, 'BTC', '{}'), ('nowhere', 2, 'guard', '2024-01-01Z', 1, 'BTC', '{}')`));
    expect(err.code).toBe('23503');
    expect(err.message).toBe('imported_transactions: a line names file nowhere which imported_files does not hold');
    expect(await lines()).toEqual([]);
  });

  it('refuses a COPY naming an unknown file', async () => {
    const err = await refusal(async () => {
      const copy = c.query(copyFrom('COPY imported_transactions (file_sha256, line, wallet, ts, received_amount, received_currency, raw, line_key) FROM STDIN'));
      copy.end('known\t2\tguard\t2024-01-01Z\t1\tBTC\t{}\tk1\nunheard\t3\tguard\t2024-01-01Z\t1\tBTC\t{}\tk2\n');
      await finished(copy);
    });
    expect(err.code).toBe('23503');
    expect(err.message).toContain('file unheard which imported_files does not hold');
    expect(await lines()).toEqual([]);
  });

  it('refuses an UPDATE moving a line to an unknown file', async () => {
    await c.query(LINE, ['known', 2]);
    const err = await refusal(() => c.query(`UPDATE imported_transactions SET file_sha256 = 'elsewhere'`));
    expect(err.code).toBe('23503');
    expect(err.message).toContain('file elsewhere which imported_files does not hold');
    expect(await lines()).toEqual([{ file_sha256: 'known', line: 2 }]);
  });

  it('refuses a DELETE of a file row that still has lines', async () => {
    await c.query(LINE, ['known', 2]);
    await c.query(LINE, ['known', 3]);
    const err = await refusal(() => c.query(`DELETE FROM imported_files WHERE sha256 = 'known'`));
    expect(err.code).toBe('23503');
    expect(err.message).toBe('imported_files: file known still has 2 line(s) in imported_transactions');
    expect(await files()).toEqual(['known']);
  });

  it('refuses a new sha256 for a file row that has lines', async () => {
    await c.query(LINE, ['known', 2]);
    const err = await refusal(() => c.query(`UPDATE imported_files SET sha256 = 'renamed' WHERE sha256 = 'known'`));
    expect(err.code).toBe('23503');
    expect(err.message).toContain('file known still has 1 line(s)');
    expect(await files()).toEqual(['known']);
  });

  it('refuses a TRUNCATE of imported_files that would leave lines, and allows the tables truncated together', async () => {
    await c.query(LINE, ['known', 2]);
    // fx_rates' foreign key keeps a plain TRUNCATE out; CASCADE reaches fx_rates, not the lines.
    const err = await refusal(() => c.query('TRUNCATE imported_files CASCADE'));
    expect(err.code).toBe('23503');
    expect(err.message).toBe('imported_files: truncated while imported_transactions still has lines');
    expect(await files()).toEqual(['known']);
    await c.query('TRUNCATE imported_transactions, imported_files, fx_rates');
    expect(await files()).toEqual([]);
    expect(await lines()).toEqual([]);
  });

  it('allows what the foreign key allowed', async () => {
    await c.query(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ('other', 'transactions', 'other.csv', 'guard', 0)`);
    await c.query(LINE, ['known', 2]);
    await c.query(`UPDATE imported_transactions SET file_sha256 = 'other'`);
    await c.query(`UPDATE imported_files SET rows = 7`); // not the key
    await c.query(`DELETE FROM imported_files WHERE sha256 = 'known'`); // no lines left
    await c.query(`UPDATE imported_files SET file_name = 'x', sha256 = sha256`);
    await c.query('DELETE FROM imported_transactions');
    await c.query(`DELETE FROM imported_files`);
    expect(await files()).toEqual([]);
    // The importer: its file row first, then its lines by COPY.
    const r = await importTransactions(fresh.db, memoryFile('g.csv', `${HEADER}\n2024-05-01 10:00 UTC,,,1,BTC,,,,,,,\n2024-05-02 10:00 UTC,,,2,BTC,,,,,,,\n`), 'guard', now);
    expect(r.inserted).toBe(2);
  });

  it('makes a delete of the file wait for the transaction that added its lines, then refuses it', async () => {
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      await c.query('BEGIN');
      await c.query(LINE, ['known', 2]);
      // The file row is locked until the lines commit: the delete waits, then sees them.
      const deleting = other.query(`DELETE FROM imported_files WHERE sha256 = 'known'`).then(() => null, (err: { code?: string; message: string }) => err);
      await new Promise((r) => setTimeout(r, 300));
      await c.query('COMMIT');
      const err = await deleting;
      expect(err?.code).toBe('23503');
      expect(await files()).toEqual(['known']);
      // A REPEATABLE READ delete whose snapshot is older than the lines: refused as well.
      await c.query(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ('late', 'transactions', 'late.csv', 'guard', 0)`);
      await other.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await other.query('SELECT count(*) FROM imported_transactions'); // the snapshot
      await c.query(LINE, ['late', 2]);
      const stale = await other.query(`DELETE FROM imported_files WHERE sha256 = 'late'`).then(() => null, (e: { code?: string }) => e);
      await other.query('ROLLBACK');
      expect(stale?.code).toBe('40001');
      expect(await files()).toEqual(['known', 'late']);
    } finally {
      await c.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });
});
