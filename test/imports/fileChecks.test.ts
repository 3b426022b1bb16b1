// Issue 24: two statements of `import transactions` made cheaper, each held to what it replaced.
// - fileChecksSql: the checks of a whole file (the same content twice, TxHashes repeated) in one
//   statement that groups the lines once, where two statements sorted an array per key. Its answer
//   must be the two old statements' (written out below as they were) on every set of lines.
// - KNOWN_TX_HASHES_SQL: new lines whose TxHash the wallet already had, by one pass over the
//   wallet's lines grouped by TxHash, where a probe per line used the (wallet, tx_hash) index that
//   sql/migrations/0079 dropped. Its answer must be the probe's.
// - WALLET_HELD_SQL: "does the wallet already hold this line?" asks by (wallet, ts, line_key), the
//   index sql/migrations/0079 left in place of (wallet, line_key) and (wallet, ts). It must answer
//   as before and probe that index by all three columns (by wallet alone it would read the whole
//   wallet for every line).
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { fileChecksSql, importTransactions, KNOWN_TX_HASHES_SQL, WALLET_HELD_SQL, type FileCheckRow } from '../../src/imports/importTransactions.js';
import { memoryFile } from '../support/memoryFile.js';
import { rng as random } from '../support/seededRandom.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });
const q = async <R>(text: string, values: unknown[] = []) => (await fresh.db.executeQuery<R>(CompiledQuery.raw(text, values))).rows;

// The statements fileChecksSql replaced (src/imports/importTransactions.ts before issue 24's session 13).
const OLD_TWICE = (lines: string) => `WITH lines AS MATERIALIZED ${lines}
  SELECT max(line) FILTER (WHERE n = 2) AS line, min(line) AS first
  FROM (SELECT k, line, row_number() OVER (PARTITION BY k ORDER BY line) AS n
        FROM lines WHERE k IN (SELECT k FROM lines GROUP BY k HAVING count(*) > 1)) x
  GROUP BY k ORDER BY 1 LIMIT 1`;
const OLD_REPEATED = (lines: string) => `SELECT tx_hash, (array_agg(line ORDER BY line))[1:5] AS lines, count(*) OVER () AS total
  FROM ${lines} l WHERE tx_hash IS NOT NULL GROUP BY tx_hash HAVING count(*) > 1 ORDER BY min(line) LIMIT 3`;

describe('fileChecksSql', () => {
  it('gives the two old statements\' answers on 300 sets of lines (none, unique, repeated keys and TxHashes)', async () => {
    await q('CREATE TABLE check_lines (line int NOT NULL, k text NOT NULL, tx_hash text)');
    const lines = '(SELECT line, k, tx_hash FROM check_lines)';
    let withTwice = 0;
    let withManyRepeated = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const n = Math.floor(r() * 40);
      // Lines numbered with gaps and inserted out of order; keys and TxHashes from small alphabets
      // so that some repeat, one TxHash sometimes on more than five lines.
      let at = 1;
      const numbers = Array.from({ length: n }, () => (at += 1 + Math.floor(r() * 3))).sort(() => r() - 0.5);
      const keys = 1 + Math.floor(r() * (n + 2));
      const hashes = 1 + Math.floor(r() * 8);
      await q('DELETE FROM check_lines');
      if (n > 0) {
        await q('INSERT INTO check_lines SELECT * FROM unnest($1::int[], $2::text[], $3::text[])', [
          numbers,
          numbers.map(() => `k${Math.floor(r() * keys)}`),
          numbers.map(() => (r() < 0.3 ? null : `0x${Math.floor(r() * hashes)}`)),
        ]);
      }
      const oldTwice = (await q<{ line: number | null; first: number | null }>(OLD_TWICE(lines)))[0] ?? null;
      const oldRepeated = await q<{ tx_hash: string; lines: number[]; total: string }>(OLD_REPEATED(lines));
      for (const repeatedTxHashes of [true, false]) {
        const rows = await q<FileCheckRow>(fileChecksSql(lines, repeatedTxHashes));
        const twice = rows.filter((x) => x.kind === 'twice');
        const repeated = rows.filter((x) => x.kind === 'repeated');
        expect(twice.map((x) => ({ line: x.line, first: x.first })), `seed ${seed}`).toEqual(oldTwice ? [oldTwice] : []);
        expect(repeated.map((x) => ({ tx_hash: x.tx_hash, lines: x.lines, total: x.total })), `seed ${seed}`)
          .toEqual(repeatedTxHashes ? oldRepeated : []);
        if (repeatedTxHashes) {
          // the first line of each repeated TxHash, as the importer reports it
          for (const x of repeated) expect(x.line).toBe(Math.min(...x.lines!));
        }
      }
      if (oldTwice) withTwice++;
      if (oldRepeated.length === 3 && oldRepeated.some((x) => x.lines.length === 5)) withManyRepeated++;
    }
    // The sets exercised what they are for: files with a line twice, and more repeated TxHashes
    // than are shown, one of them on five lines or more.
    expect(withTwice).toBeGreaterThan(50);
    expect(withManyRepeated).toBeGreaterThan(10);
  });
});

// The statement KNOWN_TX_HASHES_SQL replaced (src/imports/importTransactions.ts before session 13).
const OLD_KNOWN = `SELECT s.line, s.tx_hash, count(*) OVER () AS total FROM imported_transactions s
  WHERE s.file_sha256 = $2 AND s.tx_hash IS NOT NULL
    AND EXISTS (SELECT 1 FROM imported_transactions t WHERE t.wallet = $1 AND t.tx_hash = s.tx_hash AND t.file_sha256 <> $2)
  ORDER BY s.line LIMIT 3`;

describe('KNOWN_TX_HASHES_SQL', () => {
  it('names the same new lines as the probe per line on 200 wallets (TxHashes in earlier files, in other wallets, repeated, absent)', async () => {
    let withHits = 0;
    let withMany = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(1000 + seed);
      await q('DELETE FROM imported_transactions');
      await q('DELETE FROM imported_files');
      // Three files into wallet kw (the last one new), one into another wallet; TxHashes from a
      // small alphabet, so they meet across files and wallets, and some lines have none.
      const files = [['f1', 'kw'], ['f2', 'kw'], ['other', 'ow'], ['new', 'kw']] as const;
      const hashes = 1 + Math.floor(r() * 12);
      for (const [sha, wallet] of files) {
        await q(`INSERT INTO imported_files (sha256, kind, file_name, wallet, rows) VALUES ($1, 'transactions', $1, $2, 0)`, [sha, wallet]);
        const n = Math.floor(r() * 25);
        if (n === 0) continue;
        const lines = Array.from({ length: n }, (_, i) => 2 + i);
        await q(`INSERT INTO imported_transactions (file_sha256, line, wallet, ts, received_amount, received_currency, description, tx_hash, raw)
                 SELECT $1, l, $2, '2024-01-01Z'::timestamptz + l * interval '1 minute', 1, 'BTC', $1 || l, h, '{}'
                 FROM unnest($3::int[], $4::text[]) AS u(l, h)`,
        [sha, wallet, lines, lines.map(() => (r() < 0.25 ? null : `0x${Math.floor(r() * hashes)}`))]);
      }
      const old = await q<{ line: number; tx_hash: string; total: string }>(OLD_KNOWN, ['kw', 'new']);
      const now = await q<{ line: number; tx_hash: string; total: string }>(KNOWN_TX_HASHES_SQL, ['kw', 'new']);
      expect(now, `seed ${seed}`).toEqual(old);
      if (old.length > 0) withHits++;
      if (old.length === 3 && Number(old[0]!.total) > 3) withMany++;
    }
    expect(withHits).toBeGreaterThan(50);
    expect(withMany).toBeGreaterThan(20);
    await q('DELETE FROM imported_transactions');
    await q('DELETE FROM imported_files');
  });
});

describe('WALLET_HELD_SQL', () => {
  const HEADER = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
  const line = (i: number) => `2024-01-${String(1 + (i % 28)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} UTC,,,${i}.5,BTC,,,,,,held ${i},`;

  it('names the lines the wallet holds, probing its (wallet, ts, line_key) index by all three', async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => line(i));
    await importTransactions(fresh.db, memoryFile('held.csv', `${HEADER}\n${lines.join('\n')}\n`), 'held-wallet', new Date('2026-01-01T00:00:00Z'));
    await q('ANALYZE imported_transactions');
    // Three of the wallet's lines (their own keys and times), and two it does not hold: a key it
    // holds asked with another wallet, and a key it does not hold at a time it does.
    const stored = await q<{ line: number; line_key: string; ts: string }>(
      `SELECT line, line_key, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ts FROM imported_transactions WHERE wallet = 'held-wallet' AND line IN (2, 500, 2001) ORDER BY line`);
    expect(stored).toHaveLength(3);
    const batch = {
      lines: [10, 11, 12, 13],
      keys: [stored[0]!.line_key, stored[1]!.line_key, stored[2]!.line_key, '0'.repeat(64)],
      times: [stored[0]!.ts, stored[1]!.ts, stored[2]!.ts, stored[0]!.ts],
    };
    const ask = async (wallet: string) => fresh.db.connection().execute(async (db) => {
      const run = <R>(text: string, values: unknown[] = []) => db.executeQuery<R>(CompiledQuery.raw(text, values));
      await run('BEGIN');
      try {
        await run('CREATE TEMP TABLE import_skipped (line int NOT NULL, k text NOT NULL, tx_hash text) ON COMMIT DROP');
        const values = [wallet, batch.lines, batch.keys, batch.keys.map(() => null), batch.times];
        const held = (await run<{ line: number }>(WALLET_HELD_SQL, values)).rows.map((x) => x.line).sort((a, b) => a - b);
        const plan = (await run<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${WALLET_HELD_SQL}`, values)).rows.map((x) => x['QUERY PLAN']).join('\n');
        const skipped = (await run<{ line: number }>('SELECT line FROM import_skipped ORDER BY line')).rows.map((x) => x.line);
        return { held, plan, skipped };
      } finally {
        await run('ROLLBACK');
      }
    });
    const mine = await ask('held-wallet');
    expect(mine.held).toEqual([10, 11, 12]);
    expect(mine.skipped).toEqual([10, 11, 12]);
    expect((await ask('another-wallet')).held).toEqual([]);
    // One probe per line, through the index, with the wallet, the time and the key all in its condition.
    expect(mine.plan).toMatch(/Index (Only )?Scan using imported_transactions_wallet on imported_transactions t/);
    const cond = /Index Cond: \((.*)\)/.exec(mine.plan)?.[1] ?? '';
    expect(cond).toMatch(/\(wallet = ('held-wallet'::text|\$1)\)/);
    expect(cond).toContain('ts = u.ts');
    expect(cond).toContain('line_key = u.k');
  });
});
