import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { fixtureSql } from './ledgerFixture.js';
import { bindNamedParameters } from '../../src/reports/bindNamedParameters.js';
import { copyPlan, streamQueryToCsv } from '../../src/reports/streamQueryToCsv.js';
import { defaultReportsDir } from '../../src/reports/runReports.js';
import { reportFiles } from '../../src/reports/reportFormats.js';
import type { CsvFileResult } from '../../src/reports/streamQueryToCsv.js';
import type { BoundQuery } from '../../src/reports/bindNamedParameters.js';

// Issue 24 item 4: a report whose CSV bytes equal PostgreSQL's CSV output is streamed by COPY.
// These tests hold the COPY path to the Node path (csvLines, itself held to csv-stringify by
// csvLines.test.ts): same bytes, same row count, same neutralised-cell count.

let fresh: FreshDatabase;
let client: pg.Client;
let dir: string;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  dir = await mkdtemp(path.join(tmpdir(), 'tl-copy-csv-'));
});
afterAll(async () => {
  await client?.end();
  await fresh?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function both(query: BoundQuery): Promise<{ copy: CsvFileResult & { text: string }; node: CsvFileResult & { text: string }; copied: boolean }> {
  const copied = (await copyPlan(client, query)) !== null;
  const a = path.join(dir, `copy-${++n}.csv`);
  const b = path.join(dir, `node-${n}.csv`);
  const copy = await streamQueryToCsv(client, query, a);
  const node = await streamQueryToCsv(client, query, b, { copy: false });
  return { copy: { ...copy, text: await readFile(a, 'utf8') }, node: { ...node, text: await readFile(b, 'utf8') }, copied };
}

// Deterministic pseudo-random text, rich in what CSV quotes and what a spreadsheet runs.
function cells(seed: number, count: number): (string | null)[] {
  const alphabet = ['a', 'Z', '0', '9', '.', '-', '+', '=', '@', '\t', '\r', '\n', ',', '"', ' ', 'é', ';', "'", '\\', 'e', 'E'];
  let x = seed;
  const next = () => { x = (x * 48271) % 2147483647; return x; };
  return Array.from({ length: count }, () => {
    if (next() % 9 === 0) return null;
    return Array.from({ length: next() % 7 }, () => alphabet[next() % alphabet.length]).join('');
  });
}

describe('reports by COPY', () => {
  it('writes the same bytes and counts as the Node path on hostile text, numbers, booleans and empties', async () => {
    const values = [...cells(11, 4000), '\\.', '-1.5', '+3', '-1e5', '2.5E-7', '.5', '-', '=1+2', '@x', '\t', '\r', '', null];
    const query = {
      text: `SELECT t.i, t.v AS "text", t.v::varchar AS "varchar", (t.i % 3 = 0) AS "bool",
                    CASE WHEN t.i % 4 = 0 THEN -t.i::numeric / 8 END AS "numeric", '-infinity'::timestamptz AS "minus_infinity",
                    $1::text AS "param" FROM unnest($2::text[]) WITH ORDINALITY AS t(v, i) ORDER BY t.i`,
      values: ["it's \\ -x", toArrayLiteral(values)],
    };
    const { copy, node, copied } = await both(query);
    expect(copied).toBe(true);
    expect(copy.text).toBe(node.text);
    expect(copy.sha256).toBe(node.sha256);
    expect(copy.rows).toBe(values.length);
    expect(copy.rows).toBe(node.rows);
    expect(copy.bytes).toBe(node.bytes);
    // Every row's minus_infinity cell is neutralised, and the formula-like values twice (text, varchar).
    expect(node.neutralisedCells).toBeGreaterThan(values.length + 200);
    expect(copy.neutralisedCells).toBe(node.neutralisedCells);
  });

  it('stays in Node where COPY would differ: one column (a lone \\. is quoted), or a $ that is no bound parameter', async () => {
    for (const text of [
      `SELECT '\\.'::text AS only UNION ALL SELECT 'x'`,
      `SELECT 1 AS n, '$1' AS dollar`,
    ]) {
      const query = { text, values: [] };
      expect(await copyPlan(client, query), text).toBeNull();
      const { copy, node } = await both(query);
      expect(copy.text, text).toBe(node.text);
    }
  });

  it('writes any type as its output function and guards the header as the Node path does', async () => {
    const query = { text: `SELECT 'a '::char(3) AS padded, '10.0.0.1'::inet AS ip, 1 AS "=name", '\\.' AS dot, true AS b, '{"=x": [1, "-y"]}'::jsonb AS j`, values: [] };
    const { copy, node, copied } = await both(query);
    expect(copied).toBe(true);
    expect(copy.text).toBe(node.text);
    expect(copy.neutralisedCells).toBe(1);
    expect(node.neutralisedCells).toBe(1);
  });

  it('keeps a cell whole when it spans the chunks COPY arrives in', async () => {
    // Long cells (64 KB and more) in every form the guard treats apart: formula-like and quoted,
    // formula-like and not, a long negative number, an empty string, a leading doubled quote.
    const long = 'x'.repeat(70_000);
    const query = {
      text: `SELECT i, CASE i % 6 WHEN 0 THEN '=' || $1::text WHEN 1 THEN '-' || $1::text || ',' WHEN 2 THEN '-' || repeat('1', 70000) || '.5'
                              WHEN 3 THEN '' WHEN 4 THEN '"' || $1::text ELSE '@' END AS v, '+' || $1::text AS w
             FROM generate_series(1, 30) i`,
      values: [long],
    };
    const { copy, node, copied } = await both(query);
    expect(copied).toBe(true);
    expect(copy.text).toBe(node.text);
    expect(copy.neutralisedCells).toBe(node.neutralisedCells);
    expect(node.neutralisedCells).toBe(30 + 15);
  });

  it('writes every report of every format on the fixture ledger byte-identically by COPY, and every one goes by COPY', async () => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const params = { from: '2020-01-01', to: '2030-01-01', tz: 'Asia/Tokyo', account: '', fiat: 'USD', include_demo: 'false' };
      for (const format of ['native', 'koinly', 'cointracking', 'cointracker', 'ctc'] as const) {
        for (const { query: name } of reportFiles(format)) {
          const query = bindNamedParameters(await readFile(path.join(defaultReportsDir, `${name}.sql`), 'utf8'), params);
          const { copy, node, copied } = await both(query);
          expect(copied, name).toBe(true);
          expect(copy.text, name).toBe(node.text);
          expect([copy.rows, copy.neutralisedCells], name).toEqual([node.rows, node.neutralisedCells]);
        }
      }
    } finally {
      await client.query('COMMIT');
    }
  });

  it('fails as the query fails, and refuses an existing file before running anything', async () => {
    await expect(streamQueryToCsv(client, { text: 'SELECT 1 AS a, no_such_column AS b', values: [] }, path.join(dir, 'bad.csv'))).rejects.toThrow(/no_such_column/);
    const taken = path.join(dir, 'taken.csv');
    await streamQueryToCsv(client, { text: 'SELECT 1 AS a, 2 AS b', values: [] }, taken);
    await expect(streamQueryToCsv(client, { text: 'SELECT 1 AS a, 2 AS b', values: [] }, taken, { flags: 'wx' })).rejects.toMatchObject({ code: 'EEXIST' });
    // The connection is still usable.
    expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });

  // A disk that fills up mid-file (seen with `gains --out` on a 64 KiB tmpfs: the run never
  // ended). /dev/full opens and fails every write with ENOSPC. The error must come back, and the
  // connection must be free for the next statement (the caller's ROLLBACK), by either path.
  it.each([['COPY', true], ['Node', false]] as const)('a file whose disk is full fails with ENOSPC, by %s, and leaves the connection usable', async (_path, copy) => {
    const many = { text: `SELECT g AS n, repeat('x', 200) || g AS text FROM generate_series(1, 200000) g`, values: [] };
    expect((await copyPlan(client, many)) !== null).toBe(true);
    const LATE = Symbol('still waiting');
    const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<typeof LATE>((r) => { setTimeout(() => r(LATE), 60_000).unref(); })]);
    const failed = await within(streamQueryToCsv(client, many, '/dev/full', { copy }).then(() => 'written', (e: { code?: string }) => e.code));
    expect(failed).toBe('ENOSPC');
    const next = await within(client.query('SELECT 1 AS one').then((r) => r.rows[0].one as number));
    expect(next).toBe(1);
  }, 150_000);
});

function toArrayLiteral(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}
