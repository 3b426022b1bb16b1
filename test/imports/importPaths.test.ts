// Issue 24: the import stores new lines straight into imported_transactions and, when the
// wallet held lines before, asks a second connection which of a batch's lines it holds. These
// cases pin the decisions that design must keep: the same content twice in a file is refused
// wherever its copies are (both new, both already held, across batches), and the counts and
// notes are those of the whole file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { importTransactions, type ImportProgress } from '../../src/imports/importTransactions.js';
import { createDb } from '../../src/db/createDb.js';
import { memoryFile } from '../support/memoryFile.js';

const now = new Date('2026-01-01T00:00:00Z');
const HEADER = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
const line = (i: number, hash = `0x${i.toString(16)}`) => `2025-01-01 00:00 UTC,,,${i + 1},SOL,,,,,,line ${i},${hash}`;
const csv = (lines: string[]) => `${HEADER}\n${lines.join('\n')}\n`;

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });
const stored = async (wallet: string) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM imported_transactions WHERE wallet = ${wallet}`.execute(fresh.db)).rows[0]!.n);

describe('import transactions into a wallet that holds lines', () => {
  it('skips what it holds, stores the rest, and notes TxHashes repeated across both', async () => {
    await importTransactions(fresh.db, memoryFile('a.csv', csv([line(1), line(2)])), 'held', now);
    const r = await importTransactions(fresh.db, memoryFile('b.csv', csv([line(1), line(3), line(4, '0x2'), line(5, '0x1')])), 'held', now);
    expect(r).toMatchObject({ transactions: 4, inserted: 3, skipped: 1, already: null });
    // 0x1 is on line 2 (held, skipped) and line 5 (new): repeated in the file and already in the wallet.
    expect(r.repeatedTxHashes).toEqual({ count: 1, examples: [{ txHash: '0x1', lines: [2, 5] }] });
    expect(r.txHashesInWallet).toEqual({ count: 2, examples: [{ line: 4, txHash: '0x2' }, { line: 5, txHash: '0x1' }] });
    expect(await stored('held')).toBe(5);
  });

  it.each([
    ['two copies of a line the wallet holds', [line(1), line(7), line(1)], 'line 4: the same transaction as line 2'],
    ['two copies of a new line', [line(8), line(9), line(8)], 'line 4: the same transaction as line 2'],
    ['the first of two pairs named', [line(20), line(1), line(21), line(1), line(20)], 'line 5: the same transaction as line 3'],
  ])('refuses %s, storing nothing', async (_what, lines, message) => {
    const before = await stored('held');
    await expect(importTransactions(fresh.db, memoryFile('dup.csv', csv(lines)), 'held', now)).rejects.toThrow(`dup.csv ${message}`);
    expect(await stored('held')).toBe(before);
  });

  it('finds a line repeated thousands of lines later, across batches, storing nothing', { timeout: 120_000 }, async () => {
    const lines = Array.from({ length: 12_000 }, (_, i) => line(100 + i));
    lines.push(line(100));
    const before = await stored('held');
    await expect(importTransactions(fresh.db, memoryFile('far.csv', csv(lines), 64 * 1024), 'held', now)).rejects.toThrow('far.csv line 12002: the same transaction as line 2');
    expect(await stored('held')).toBe(before);
  });

  it('tells how far it is: lines read as the file is read (in 64 KB pieces here), then the whole-file checks', async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => line(50_000 + i));
    const seen: ImportProgress[] = [];
    const r = await importTransactions(fresh.db, memoryFile('progress.csv', csv(lines), 64 * 1024), 'progress', now, (p) => seen.push(p));
    expect(r.transactions).toBe(3_000);
    const reading = seen.filter((p) => p.stage === 'reading').map((p) => p.lines);
    expect(reading.length, 'more than one piece of the file').toBeGreaterThan(1);
    expect(reading.every((n, i) => i === 0 || n >= reading[i - 1]!), `${reading}`).toBe(true);
    expect(new Set(reading).size, `${reading}`).toBeGreaterThan(1);
    expect(reading.at(-1)).toBe(3_000);
    expect(seen.at(-1)).toEqual({ stage: 'checking', lines: 3_000 });
  });

  it('works on a pool of one connection too', async () => {
    const one = createDb(fresh.url, { name: 'test-one', maxConnections: 1 });
    try {
      const r = await importTransactions(one, memoryFile('c.csv', csv([line(1), line(30)])), 'held', now);
      expect(r).toMatchObject({ inserted: 1, skipped: 1 });
    } finally {
      await one.destroy();
    }
  });

  it('imports a file imported before into nothing, checking every line', async () => {
    const text = csv([line(40), line(41)]);
    await importTransactions(fresh.db, memoryFile('d.csv', text), 'other', now);
    const again = await importTransactions(fresh.db, memoryFile('d.csv', text), 'held', now);
    expect(again).toMatchObject({ transactions: 2, inserted: 0, skipped: 2, already: { wallet: 'other' } });
    expect(await stored('other')).toBe(2);
  });
});
