import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import type { HistoryStream } from '../../src/extract/streamDef.js';
import { readColumn } from '../../src/load/column.js';
import type { Column, ColumnValue } from '../../src/load/column.js';
import { upsertLean } from '../../src/load/upsertHistory.js';
import { loadBatch } from '../../src/load/loadBatch.js';
import { recordMapper, stripSecrets } from '../../src/load/recordMapper.js';
import type { LeanRow } from '../../src/load/recordMapper.js';
import { isRecord } from '../../src/load/unreadableEntry.js';
import { checkpointStatement } from '../../src/extract/syncState.js';
import { nulProblem } from '../../src/load/storableJson.js';
import { checkRecord } from '../../src/normalize/checkRecord.js';
import type { CheckedResource } from '../../src/normalize/recordShapes.js';
import { poolOf } from '../../src/db/createDb.js';
import type { FeeRow } from '../../src/normalize/feeRow.js';
import { testSyncOptions } from '../support/testSync.js';

// The sync sends PostgreSQL the raw record plus only the column values it cannot derive from raw
// (recordMapper + upsertLean: the SQL readers of load/column.ts). These tests load the same
// records through a full JS mapper (every typed column computed by the TypeScript readers of
// load/column.ts, every field checked by checkRecord) into a copy of each table and require every
// typed column and every problem to be equal.

const env = sandboxWithDatabase();

let refs = 0;
const bookkeeping = new Set(['account_uid', 'raw', 'problems', 'first_seen_at', 'updated_at', 'seen_run_id', 'last_seen_at']);

// The reference: every typed column read in JS (and sent as a value, so PostgreSQL derives
// nothing), all problems from the column readers and checkRecord, the missing-id stand-in.
function referenceRow(resource: string, columns: Readonly<Record<string, Column>>, key: readonly string[], raw: Record<string, unknown>, extra: readonly string[]): LeanRow {
  const clean = stripSecrets(raw);
  const set: Record<string, ColumnValue> = {};
  const problems = new Set<string>();
  for (const [name, column] of Object.entries(columns)) {
    const value = clean[column.field];
    if (value === undefined || value === null || value === '') {
      set[name] = null;
      continue;
    }
    const read = readColumn(column, value);
    set[name] = read.value;
    if (read.problem !== undefined) problems.add(`${column.field}: ${read.problem}`);
  }
  for (const k of key) {
    if (k in set && set[k] === null) {
      // Computed as recordMapper does, so the stand-in's text is compared, not re-derived.
      set[k] = recordMapper({ resource, columns, key })(clean, {}).keyValues[key.indexOf(k)]!;
      problems.add(`${columns[k]?.field ?? k}: the record has no id; stored under ${set[k]}`);
    }
  }
  for (const p of checkRecord(resource as CheckedResource, clean)) problems.add(p.message);
  for (const p of extra) problems.add(p);
  const found = [...problems];
  if (found.length > 0) set.problems = found;
  const keyValues = key.map((k) => String(set[k] ?? ''));
  return { rawJson: JSON.stringify(clean), set, key: keyValues.join('\u0000'), keyValues, id: keyValues.at(-1) ?? '', problems: found, fees: [] };
}

/** Rows of `stream`'s table whose typed columns or problems differ from the reference mapper's. */
async function differencesFromReference(db: Kysely<any>, stream: HistoryStream, sources?: { account: string; raw: Record<string, unknown> }[]): Promise<{ differences: unknown[]; compared: number; feeFlagged: number }> {
  const tableColumns = (await sql<{ c: string }>`SELECT column_name AS c FROM information_schema.columns WHERE table_name = ${stream.table} ORDER BY ordinal_position`.execute(db)).rows.map((r) => r.c);
  const partitionColumns = tableColumns.filter((c) => !bookkeeping.has(c) && !(c in stream.columns));
  const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(stream.table)}`.execute(db);
  // The records as stored, unless the test gives the records as sent: a missing id's stand-in is
  // a hash of the record as received, whose key order jsonb does not keep. Grouped by account and
  // partition, as the loader takes them.
  const groups = new Map<string, { account: string; partition: Record<string, string>; rows: LeanRow[] }>();
  const add = (account: string, partition: Record<string, string>, raw: unknown, extra: readonly string[]) => {
    const id = JSON.stringify([account, partition]);
    const group = groups.get(id) ?? { account, partition, rows: [] };
    // Stored entries that are not objects are the mapper's own (no typed columns to compare).
    group.rows.push(isRecord(raw) ? referenceRow(stream.name, stream.columns, stream.key, raw, extra) : recordMapper({ resource: stream.name, columns: stream.columns, key: stream.key })(raw, partition, extra));
    groups.set(id, group);
  };
  if (sources) for (const r of sources) add(r.account, {}, r.raw, []);
  else {
    for (const row of rows) {
      // Fee-parser problems are not re-derived here (that needs the symbol book); the stored ones are passed through.
      const feeProblems = (row.problems as string[]).filter((p) => p.startsWith('feeDetail:'));
      add(String(row.account_uid), Object.fromEntries(partitionColumns.map((c) => [c, String(row[c])])), row.raw, feeProblems);
    }
  }
  const client = await poolOf(db).connect();
  try {
    // One reference table per stream and test: the loaders cache column types by table name.
    const ref = `ref_${stream.table}_${++refs}`;
    await client.query(`CREATE TEMP TABLE ${ref} (LIKE "${stream.table}" INCLUDING ALL)`);
    for (const g of groups.values()) {
      const unique = [...new Map(g.rows.map((r) => [r.key, r])).values()];
      await upsertLean(client, { table: ref, key: stream.key, partitionColumns, columns: stream.columns }, { account: g.account, partition: g.partition, runId: '0' }, unique);
    }
    // checkRecord adds one joined message for a feeDetail with several shape problems, beside the
    // fee parser's one-per-problem messages; the lean mapper keeps the latter only.
    const shown = [...tableColumns.filter((c) => c !== 'problems' && c !== 'raw' && !bookkeeping.has(c) || c === 'account_uid'),
      `ARRAY(SELECT p FROM unnest(problems) p WHERE p NOT LIKE 'feeDetail:%' ORDER BY p) AS problems`].map((c) => (c.includes(' ') ? c : `"${c}"`)).join(', ');
    const diff = await client.query(`(SELECT 'lean' AS side, ${shown} FROM "${stream.table}" EXCEPT SELECT 'lean', ${shown} FROM ${ref})
      UNION ALL (SELECT 'reference', ${shown} FROM ${ref} EXCEPT SELECT 'reference', ${shown} FROM "${stream.table}") LIMIT 10`);
    const flagged = await client.query(`SELECT count(*)::int AS n FROM ${ref} r JOIN "${stream.table}" t USING (account_uid, ${stream.key.map((k) => `"${k}"`).join(', ')})
      WHERE EXISTS (SELECT 1 FROM unnest(r.problems) p WHERE p LIKE 'feeDetail:%') AND NOT EXISTS (SELECT 1 FROM unnest(t.problems) p WHERE p LIKE 'feeDetail:%')`);
    return { differences: diff.rows, compared: rows.length, feeFlagged: flagged.rows[0].n };
  } finally {
    client.release();
  }
}

describe('lean rows: typed columns derived in PostgreSQL', () => {
  it('equal the full JS mapper on every record of every history stream after a sync', async () => {
    const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
    expect(result.errors).toEqual([]);
    let total = 0;
    for (const stream of historyStreams) {
      const { differences, compared, feeFlagged } = await differencesFromReference(env.fresh.db, stream);
      expect(differences, stream.name).toEqual([]);
      expect(feeFlagged, `${stream.name}: a record the reference flags for its feeDetail is flagged`).toBe(0);
      total += compared;
    }
    expect(total).toBeGreaterThan(1000);
  });

  it('equal the full JS mapper on records with every odd form a value can take', async () => {
    const stream = historyStreams.find((s) => s.name === 'deposits')!;
    const base = { orderId: '900', coin: 'USDT', dest: 'on_chain', size: '1.5', status: 'success', cTime: '1700000000123', uTime: '1700000000999' };
    const odd: Record<string, unknown>[] = [
      base,
      { ...base, orderId: '901', size: '1.2E-3', cTime: '1700000000', uTime: '' },
      { ...base, orderId: '902', size: 5, cTime: 1700000000123, uTime: null },
      { ...base, orderId: '903', size: '111,1', cTime: 'yesterday', uTime: '17000000001' },
      { ...base, orderId: '904', coin: 42, dest: 'lightning', status: 'weird', size: '', chain: { a: 1 } },
      { ...base, orderId: undefined, size: '-0.000', passphrase: 'hunter2', secretKey: 's' },
      { ...base, orderId: '905', size: '007.50', coin: '' , tag: "it's \"quoted\"\n\t\\" },
      { ...base, orderId: '906', size: '1'.repeat(40), cTime: ' 1700000000123 ' },
    ];
    const db = env.fresh.db;
    await sql`DELETE FROM deposits`.execute(db);
    const map = recordMapper({ resource: 'deposits', columns: stream.columns, key: stream.key });
    const rows = odd.map((r) => map(r, {}, []));
    const counts = await loadBatch(db, {
      target: { table: 'deposits', key: stream.key, partitionColumns: [], columns: stream.columns },
      constants: { account: 'u-odd', partition: {}, runId: '1' }, rows,
    });
    expect(counts).toEqual({ inserted: odd.length, updated: 0, unchanged: 0 });
    const { differences, compared } = await differencesFromReference(db, stream, odd.map((raw) => ({ account: 'u-odd', raw })));
    expect(compared).toBe(odd.length);
    expect(differences).toEqual([]);
    const stored = (await sql<{ raw: Record<string, unknown>; problems: string[]; size: string | null; c_time: Date | null }>`
      SELECT raw, problems, size::text AS size, c_time FROM deposits ORDER BY order_id`.execute(db)).rows;
    expect(stored.some((r) => 'passphrase' in r.raw || 'secretKey' in r.raw)).toBe(false);
    expect(stored.find((r) => r.raw.orderId === '901')).toMatchObject({ size: '0.0012', c_time: new Date(1700000000000) });
    expect(stored.find((r) => r.raw.orderId === '903')!.problems.length).toBeGreaterThanOrEqual(3);
    // Loading the same records again changes nothing.
    const again = await loadBatch(db, {
      target: { table: 'deposits', key: stream.key, partitionColumns: [], columns: stream.columns },
      constants: { account: 'u-odd', partition: {}, runId: '2' }, rows: odd.map((r) => map(r, {}, [])),
    });
    expect(again).toEqual({ inserted: 0, updated: 0, unchanged: odd.length });
  });

  it('replaces the fee rows of a record whose row changed, and leaves the others alone', async () => {
    const stream = historyStreams.find((s) => s.name === 'spotFills')!;
    const db = env.fresh.db;
    const map = recordMapper({ resource: 'spotFills', columns: stream.columns, key: stream.key, fees: 'spotFill' });
    const fill = (tradeId: string, size: string) => ({ tradeId, orderId: '1', symbol: 'BTCUSDT', side: 'buy', priceAvg: '100', size, amount: '100', cTime: '1700000000123' });
    const fee = (coin: string, paid: string): FeeRow => ({ coin, paid, platformDeducted: '0', couponCovered: '0', payableInReceivedCoin: '0', receivedCoin: null, format: 'legacy', rebate: false, raw: {} });
    const load = (records: Record<string, unknown>[], fees: [string, FeeRow[]][], runId: string) => loadBatch(db, {
      target: { table: 'spot_fills', key: stream.key, partitionColumns: [], columns: stream.columns },
      constants: { account: 'u-fees', partition: {}, runId }, rows: records.map((r) => map(r, {}, [])),
      fees: { source: 'spot_fills', byId: new Map(fees) },
    });
    const stored = async () => (await sql<{ source_id: string; seq: number; coin: string; paid: string; c_time: Date }>`
      SELECT source_id, seq, coin, paid::text AS paid, c_time FROM fees WHERE account_uid = 'u-fees' ORDER BY source_id, seq`.execute(db)).rows;
    expect(await load([fill('a', '1'), fill('b', '1')], [['a', [fee('BTC', '0.1'), fee('BGB', '0.2')]], ['b', [fee('USDT', '1')]]], '1'))
      .toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await stored()).toEqual([
      { source_id: 'a', seq: 0, coin: 'BTC', paid: '0.1', c_time: new Date(1700000000123) },
      { source_id: 'a', seq: 1, coin: 'BGB', paid: '0.2', c_time: new Date(1700000000123) },
      { source_id: 'b', seq: 0, coin: 'USDT', paid: '1', c_time: new Date(1700000000123) },
    ]);
    // a changes (one fee coin now); b is sent unchanged with different fee rows, which must not be written.
    expect(await load([fill('a', '2'), fill('b', '1')], [['a', [fee('USDT', '5')]], ['b', [fee('DOGE', '9')]]], '2'))
      .toEqual({ inserted: 0, updated: 1, unchanged: 1 });
    expect((await stored()).map((f) => `${f.source_id}/${f.seq} ${f.coin} ${f.paid}`)).toEqual(['a/0 USDT 5', 'b/0 USDT 1']);
  });

  it('commit the checkpoint in the same statement as the rows: both or neither', async () => {
    const stream = historyStreams.find((s) => s.name === 'deposits')!;
    const map = recordMapper({ resource: 'deposits', columns: stream.columns, key: stream.key });
    const target = { table: 'deposits', key: stream.key, partitionColumns: [], columns: stream.columns };
    const constants = { account: 'u-atomic', partition: {}, runId: '3' };
    const key = { account: 'u-atomic', stream: 'deposits', partition: 'all' };
    const checkpoint = (cursor: string) => checkpointStatement(key, { watermark: undefined, window: { start: 0, end: 1000, cursor }, status: 'running', runId: '3' });
    const record = { orderId: '1', coin: 'USDT', dest: 'on_chain', size: '1', status: 'success', cTime: '1700000000000' };
    const cursor = async () => (await sql<{ cursor: string }>`SELECT cursor FROM sync_state WHERE account_uid = 'u-atomic'`.execute(env.fresh.db)).rows.map((r) => r.cursor);
    const stored = async () => Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = 'u-atomic'`.execute(env.fresh.db)).rows[0]!.n);

    await loadBatch(env.fresh.db, { target, constants, rows: [map(record, {}, [])], alongside: checkpoint('41') });
    expect([await stored(), await cursor()]).toEqual([1, ['41']]);
    // A row PostgreSQL refuses (a value sent beside raw that is not a number) fails the statement:
    // neither the new row nor the checkpoint may be committed.
    const bad = { ...map({ ...record, orderId: '2' }, {}, []), set: { size: 'not a number' } };
    await expect(loadBatch(env.fresh.db, { target, constants, rows: [map({ ...record, orderId: '3' }, {}, []), bad], alongside: checkpoint('42') })).rejects.toThrow();
    expect([await stored(), await cursor()]).toEqual([1, ['41']]);
  });

  it('store a record holding NUL characters with U+FFFD in their place, flagged, without failing its batch', async () => {
    const stream = historyStreams.find((s) => s.name === 'deposits')!;
    const map = recordMapper({ resource: 'deposits', columns: stream.columns, key: stream.key });
    const target = { table: 'deposits', key: stream.key, partitionColumns: [], columns: stream.columns };
    const base = { coin: 'USDT', dest: 'on_chain', size: '1', status: 'success', cTime: '1700000000000' };
    const records = [
      { ...base, orderId: 'nul-1', toAddress: 'T\u0000x', extra: { 'k\u0000': ['a\u0000'] } },
      { ...base, orderId: 'nul-2', size: 5 },
      { ...base, orderId: 'nul-3\u0000' },
      { ...base, orderId: 'nul-4', tag: 'back\\u0000slash' },
    ];
    const counts = await loadBatch(env.fresh.db, { target, constants: { account: 'u-nul', partition: {}, runId: '4' }, rows: records.map((r) => map(r, {}, [])) });
    expect(counts.inserted).toBe(4);
    const { rows } = await sql<{ order_id: string; to_address: string | null; raw: Record<string, unknown>; problems: string[] }>`
      SELECT order_id, to_address, raw, problems FROM deposits WHERE account_uid = 'u-nul' ORDER BY order_id`.execute(env.fresh.db);
    expect(rows.map((r) => r.order_id)).toEqual(['nul-1', 'nul-2', 'nul-3\uFFFD', 'nul-4']);
    expect(rows[0]!.to_address).toBe('T\uFFFDx');
    expect(rows[0]!.raw.extra).toEqual({ 'k\uFFFD': ['a\uFFFD'] });
    expect(rows[0]!.problems).toContain(nulProblem);
    expect(rows[2]!.problems).toContain(nulProblem);
    // Records without NUL are stored as sent and not flagged for it, even beside one that has;
    // a literal backslash-u-0000 in a string is text, not NUL.
    expect(rows[1]!.problems).not.toContain(nulProblem);
    expect(rows[3]!.problems).not.toContain(nulProblem);
    expect(rows[3]!.raw.tag).toBe('back\\u0000slash');
  });
});
