import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { poolOf } from '../../src/db/createDb.js';
import { upsertPage } from '../../src/load/upsertSnapshot.js';
import type { UpsertSpec } from '../../src/load/upsertSnapshot.js';
import { nulProblem } from '../../src/load/storableJson.js';

// The batch travels as one jsonb parameter typed by the table's row type; these checks pin what
// that must keep: exact decimals, jsonb from an object and from JSON text, text arrays with
// quotes and backslashes, NULLs, and counts that tell new, changed and equal rows apart.
const spec: UpsertSpec = {
  table: 'spot_fills', key: ['account_uid', 'trade_id'],
  columns: ['account_uid', 'trade_id', 'price_avg', 'fee_detail', 'c_time', 'raw', 'problems'],
  compare: ['raw', 'problems'], onChange: ['updated_at = now()'], jsonText: ['fee_detail'],
};
const exact = '123456789012345678901234.000000000000000000000001';
const raw1 = { tradeId: 't1', priceAvg: exact, big: '12345678901234567890123', nested: { a: [1, 'x "y" \\ z'] } };
const row1 = ['u1', 't1', exact, '{"newFees":{"t":"-0.1"}}', '2026-01-02T03:04:05.006Z', raw1, ['price: "odd" \\ value', 'second']];
const row2 = ['u1', 't2', null, null, null, { tradeId: 't2' }, []];

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh.drop(); });

describe('upsertPage', () => {
  it('stores every value of a batch exactly', async () => {
    const pool = poolOf(fresh.db);
    const got = await upsertPage(pool, spec, [row1, row2]);
    expect(got).toMatchObject({ inserted: 2, updated: 0, unchanged: 0 });
    const { rows } = await pool.query(`SELECT trade_id, price_avg::text AS price, fee_detail, jsonb_typeof(fee_detail) AS fd_type,
      c_time, raw, problems FROM spot_fills ORDER BY trade_id`);
    expect(rows[0]).toMatchObject({ trade_id: 't1', price: exact, fee_detail: { newFees: { t: '-0.1' } }, fd_type: 'object', raw: raw1, problems: row1[6] });
    expect((rows[0].c_time as Date).toISOString()).toBe('2026-01-02T03:04:05.006Z');
    expect(rows[1]).toMatchObject({ trade_id: 't2', price: null, fee_detail: null, c_time: null, raw: { tradeId: 't2' }, problems: [] });
  });

  it('leaves equal rows alone and counts new and changed ones', async () => {
    const pool = poolOf(fresh.db);
    const same = await upsertPage(pool, spec, [row1, row2]);
    expect(same).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
    const changed = [...row2.slice(0, 5), { tradeId: 't2', status: 'new' }, []];
    const got = await upsertPage(pool, spec, [row1, changed, ['u1', 't3', '1', null, null, { tradeId: 't3' }, []]]);
    expect(got).toEqual({ inserted: 1, updated: 1, unchanged: 1 });
    const { rows } = await pool.query(`SELECT trade_id, raw FROM spot_fills ORDER BY trade_id`);
    expect(rows.map((r) => [r.trade_id, r.raw])).toEqual([['t1', raw1], ['t2', { tradeId: 't2', status: 'new' }], ['t3', { tradeId: 't3' }]]);
  });

  it('stores a NUL character as U+FFFD and flags the row, instead of failing the batch', async () => {
    const pool = poolOf(fresh.db);
    const withNul = ['u1', 't9', '1', null, null, { tradeId: 't9', note: 'a\u0000b' }, []];
    const got = await upsertPage(pool, spec, [withNul, ['u1', 't10', '1', null, null, { tradeId: 't10' }, []]]);
    expect(got).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    const { rows } = await pool.query(`SELECT trade_id, raw, problems FROM spot_fills WHERE trade_id IN ('t9', 't10') ORDER BY trade_id`);
    expect(rows.map((r) => [r.trade_id, r.raw, r.problems.length])).toEqual([['t10', { tradeId: 't10' }, 0], ['t9', { tradeId: 't9', note: 'a\uFFFDb' }, 1]]);
    expect(rows[1].problems[0]).toBe(nulProblem);
  });
});
