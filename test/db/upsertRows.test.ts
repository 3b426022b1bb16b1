import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradeledgerError } from '../../src/errors.js';
import { upsertRows } from '../../src/db/upsertRows.js';
import type { UpsertMethod } from '../../src/db/upsertRows.js';
import type { Row, UpsertTarget } from '../../src/db/upsertTarget.js';
import { withTransaction } from '../../src/db/withTransaction.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

const columns = `account_uid text NOT NULL, item_id text NOT NULL, status text, amount numeric, fee numeric,
  tags text[] NOT NULL DEFAULT '{}', flagged boolean, c_time timestamptz, raw jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (account_uid, item_id)`;

function item(id: string, status: string, extra: Partial<Record<string, Row[string]>> = {}): Row {
  return {
    account_uid: 'u1', item_id: id, status, amount: '123456789012345678901234.567890123456789', fee: '-0.000000000000000001',
    tags: ['a', 'b'], flagged: false, c_time: new Date(Date.UTC(2025, 11, 31, 23, 30)), raw: JSON.stringify({ id, status, n: 1e-8 }),
    ...extra,
  };
}

// Values COPY text must escape, and jsonb/array edge cases, to prove both paths store the same bytes.
const awkward: Row[] = [
  item('tab\tand\nnewline', 'x', { status: 'back\\slash "quoted" \r end', tags: ['with,comma', 'with"quote', 'back\\slash', '{brace}', '', 'NULL'], raw: JSON.stringify({ s: 'tab\t\\ "q" ünï €', nested: { a: [1, '2'] } }) }),
  item('nulls', 'y', { status: null, amount: null, fee: null, tags: [], flagged: null, c_time: null }),
  item('unicode-ключ', 'z', { flagged: true, amount: '1E-7', tags: ['x', null] }),
];

describe.each(['values', 'copy'] as UpsertMethod[])('upsertRows (%s)', (method) => {
  let fresh: FreshDatabase;
  const target: UpsertTarget = { table: 'items', key: ['account_uid', 'item_id'], onChange: ['updated_at = now()'] };
  const load = (rows: Row[]) => withTransaction(fresh.db, (tx) => upsertRows(tx, target, rows, method));
  const snapshot = async () => (await sql<Record<string, unknown>>`SELECT item_id, status, amount::text, fee::text, raw::text, updated_at FROM items ORDER BY item_id`.execute(fresh.db)).rows;

  beforeAll(async () => {
    fresh = await freshDatabase();
    await sql.raw(`CREATE TABLE items (${columns})`).execute(fresh.db);
  });
  afterAll(async () => { await fresh?.drop(); });

  it('counts inserts, then leaves identical rows untouched', async () => {
    expect(await load([item('1', 'live'), item('2', 'live'), item('3', 'live')])).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    const before = await snapshot();
    expect(await load([item('1', 'live'), item('2', 'live'), item('3', 'live')])).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(await snapshot()).toEqual(before); // not even updated_at moved
  });

  it('updates only the rows whose raw record changed, and inserts new ones, in one batch', async () => {
    const before = new Map((await snapshot()).map((r) => [r.item_id, r]));
    const counts = await load([item('1', 'live'), item('2', 'filled'), item('3', 'live'), item('4', 'live')]);
    expect(counts).toEqual({ inserted: 1, updated: 1, unchanged: 2 });
    const after = new Map((await snapshot()).map((r) => [r.item_id, r]));
    expect(after.get('2')?.status).toBe('filled');
    expect(after.get('2')?.updated_at).not.toEqual(before.get('2')?.updated_at);
    expect(after.get('1')).toEqual(before.get('1'));
    expect(after.get('3')).toEqual(before.get('3'));
  });

  it('keeps amounts exact, digit for digit', async () => {
    const row = (await sql<{ amount: string; fee: string }>`SELECT amount::text, fee::text FROM items WHERE item_id = '1'`.execute(fresh.db)).rows[0];
    expect(row).toEqual({ amount: '123456789012345678901234.567890123456789', fee: '-0.000000000000000001' });
  });

  it('lets the last copy of a key in one batch win, counting the earlier one as unchanged', async () => {
    expect(await load([item('5', 'live'), item('5', 'cancelled')])).toEqual({ inserted: 1, updated: 0, unchanged: 1 });
    const status = await sql<{ status: string }>`SELECT status FROM items WHERE item_id = '5'`.execute(fresh.db);
    expect(status.rows[0]?.status).toBe('cancelled');
  });

  it('loads a batch larger than one statement holds', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => item(`bulk-${i}`, 'live'));
    expect(await load(many)).toEqual({ inserted: 4500, updated: 0, unchanged: 0 });
    many[4499] = item('bulk-4499', 'filled');
    expect(await load(many)).toEqual({ inserted: 0, updated: 1, unchanged: 4499 });
  });

  it('stores awkward text, arrays, nulls and jsonb intact', async () => {
    expect(await load(awkward)).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(await load(awkward)).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    const got = await sql<{ item_id: string; status: string | null; tags: string[] }>`SELECT item_id, status, tags FROM items WHERE item_id IN ('tab\tand\nnewline', 'nulls') ORDER BY item_id`.execute(fresh.db);
    expect(got.rows).toEqual([
      { item_id: 'nulls', status: null, tags: [] },
      { item_id: 'tab\tand\nnewline', status: 'back\\slash "quoted" \r end', tags: ['with,comma', 'with"quote', 'back\\slash', '{brace}', '', 'NULL'] },
    ]);
  });

  it('rolls back with the caller\'s transaction', async () => {
    const failed = withTransaction(fresh.db, async (tx) => {
      await upsertRows(tx, target, [item('rolled-back', 'live')], method);
      throw new Error('caller gives up');
    });
    await expect(failed).rejects.toThrow('caller gives up');
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM items WHERE item_id = 'rolled-back'`.execute(fresh.db);
    expect(n.rows[0]?.n).toBe(0);
  });

  it('refuses a JS number for a column, naming the column', async () => {
    const bad = { ...item('6', 'live'), amount: 0.1 } as unknown as Row;
    const err = await load([bad]).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(TradeledgerError);
    expect((err as TradeledgerError).message).toContain('"amount"');
    expect((err as TradeledgerError).hint).toMatch(/string/);
  });
});

describe('the two bulk paths', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase();
    await sql.raw(`CREATE TABLE via_values (${columns}); CREATE TABLE via_copy (${columns});`).execute(fresh.db);
  });
  afterAll(async () => { await fresh?.drop(); });

  it('give identical tables for the same batches', async () => {
    const first = [...awkward, ...Array.from({ length: 300 }, (_, i) => item(String(i), i % 3 ? 'live' : 'new'))];
    const second = [...awkward.slice(1), ...Array.from({ length: 400 }, (_, i) => item(String(i), i % 2 ? 'live' : 'filled'))];
    for (const [table, method] of [['via_values', 'values'], ['via_copy', 'copy']] as const) {
      const target: UpsertTarget = { table, key: ['account_uid', 'item_id'] };
      const a = await withTransaction(fresh.db, (tx) => upsertRows(tx, target, first, method));
      const b = await withTransaction(fresh.db, (tx) => upsertRows(tx, target, second, method));
      // Of ids 0-299, the odd ones not divisible by 3 stay 'live' (100); the other 200 change.
      expect([a, b]).toEqual([{ inserted: 303, updated: 0, unchanged: 0 }, { inserted: 100, updated: 200, unchanged: 102 }]);
    }
    const dump = (t: string) => sql.raw<{ line: string }>(
      `SELECT concat_ws('|', item_id, status, amount::text, fee::text, tags::text, flagged::text, c_time::text, raw::text) AS line FROM ${t} ORDER BY item_id`,
    ).execute(fresh.db);
    const [viaValues, viaCopy] = await Promise.all([dump('via_values'), dump('via_copy')]);
    expect(viaValues.rows.length).toBe(403);
    expect(viaCopy.rows).toEqual(viaValues.rows);
  });
});
