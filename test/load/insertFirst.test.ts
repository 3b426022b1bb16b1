import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { poolOf } from '../../src/db/createDb.js';
import { upsertLean } from '../../src/load/upsertHistory.js';
import { recordMapper } from '../../src/load/recordMapper.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { checkpointStatement } from '../../src/extract/syncState.js';
import type { FeeRow } from '../../src/normalize/feeRow.js';

// upsertLean's insertFirst (issue 14): after a batch of a target came back all new, the next
// batches go as a plain INSERT; an existing key makes that statement fail as a whole and the batch
// is upserted instead. Whatever path a batch takes, the table, the fee rows, the checkpoint and the
// counts must be what the upsert alone gives.

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh.drop(); });

const stream = historyStreams.find((s) => s.name === 'spotFills')!;
// Fee rows are given per batch below, so the mapper reads no feeDetail.
const map = recordMapper({ resource: 'spotFills', columns: stream.columns, key: stream.key });
const target = { table: 'spot_fills', key: stream.key, partitionColumns: [], columns: stream.columns };
const fill = (tradeId: string, size: string) => ({ tradeId, orderId: '1', symbol: 'BTCUSDT', side: 'buy', priceAvg: '100', size, amount: '100', cTime: '1700000000123' });
const fee = (coin: string, paid: string): FeeRow => ({ coin, paid, platformDeducted: '0', couponCovered: '0', payableInReceivedCoin: '0', receivedCoin: null, format: 'legacy', rebate: false, raw: {} });

describe('upsertLean with insertFirst', () => {
  it('sends plain INSERTs after an all-new batch, falls back to the upsert on an existing key, and stores the same as the upsert', async () => {
    const pool = poolOf(fresh.db);
    // The real pool (autocommit statements), with the statements it was sent written down.
    const sent: { plain: boolean; failed: boolean }[] = [];
    const client = {
      query: async (config: string | { text: string }, values?: unknown[]) => {
        const text = typeof config === 'string' ? config : config.text;
        const entry = { plain: !/INSERT INTO "spot_fills"[\s\S]*ON CONFLICT/.test(text), failed: true };
        if (text.includes('INSERT INTO "spot_fills"')) sent.push(entry);
        const result = await pool.query(config, values);
        entry.failed = false;
        return result;
      },
    } as unknown as Parameters<typeof upsertLean>[0];
    const key = { account: 'u-first', stream: 'spotFills', partition: 'all' };
    const load = (records: Record<string, unknown>[], fees: [string, FeeRow[]][], cursor: string) => upsertLean(client, target,
      { account: 'u-first', partition: {}, runId: '1' }, records.map((r) => map(r, {}, [])),
      checkpointStatement(key, { watermark: undefined, window: { start: 0, end: 1000, cursor }, status: 'running', runId: '1' }),
      { source: 'spot_fills', byId: new Map(fees) }, { insertFirst: true });

    // 1: unknown target, upserted; all new.
    expect(await load([fill('a', '1'), fill('b', '1')], [['a', [fee('BTC', '0.1')]]], 'c1')).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    // 2: plain INSERT, with its fee rows.
    expect(await load([fill('c', '1'), fill('d', '1')], [['c', [fee('BGB', '0.2'), fee('USDT', '3')]], ['d', [fee('BTC', '0.4')]]], 'c2'))
      .toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    // 3: d exists (and changed, with one fee coin now), e is new: the plain INSERT fails, the upsert runs.
    expect(await load([fill('d', '2'), fill('e', '1'), fill('a', '1')], [['d', [fee('DOGE', '9')]], ['e', [fee('BTC', '0.5')]], ['a', [fee('XRP', '7')]]], 'c3'))
      .toEqual({ inserted: 1, updated: 1, unchanged: 1 });
    // 4: after a conflict the target is upserted from then on.
    expect(await load([fill('f', '1')], [], 'c4')).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(sent).toEqual([
      { plain: false, failed: false }, { plain: true, failed: false },
      { plain: true, failed: true }, { plain: false, failed: false },
      { plain: false, failed: false },
    ]);

    const rows = await pool.query(`SELECT trade_id, size::text AS size, c_time FROM spot_fills WHERE account_uid = 'u-first' ORDER BY trade_id`);
    expect(rows.rows.map((r) => `${r.trade_id} ${r.size}`)).toEqual(['a 1', 'b 1', 'c 1', 'd 2', 'e 1', 'f 1']);
    const fees = await pool.query(`SELECT source_id, seq, coin, paid::text AS paid, c_time FROM fees WHERE account_uid = 'u-first' ORDER BY source_id, seq`);
    // a was sent unchanged in batch 3, so its fee rows stay; d's are replaced.
    expect(fees.rows.map((f) => `${f.source_id}/${f.seq} ${f.coin} ${f.paid}`)).toEqual(['a/0 BTC 0.1', 'c/0 BGB 0.2', 'c/1 USDT 3', 'd/0 DOGE 9', 'e/0 BTC 0.5']);
    expect(fees.rows.every((f) => (f.c_time as Date).getTime() === 1700000000123)).toBe(true);
    const state = await pool.query(`SELECT cursor FROM sync_state WHERE account_uid = 'u-first'`);
    expect(state.rows).toEqual([{ cursor: 'c4' }]);
  });

  it('is not used without the option: every batch is one upsert statement', async () => {
    const pool = poolOf(fresh.db);
    const texts: string[] = [];
    const client = {
      query: (config: string | { text: string }, values?: unknown[]) => {
        texts.push(typeof config === 'string' ? config : config.text);
        return pool.query(config, values);
      },
    } as unknown as Parameters<typeof upsertLean>[0];
    const load = (ids: string[]) => upsertLean(client, target, { account: 'u-plain', partition: {}, runId: '1' }, ids.map((id) => map(fill(id, '1'), {}, [])));
    expect(await load(['a', 'b'])).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await load(['c'])).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(await load(['c', 'd'])).toEqual({ inserted: 1, updated: 0, unchanged: 1 });
    expect(texts.filter((t) => t.includes('INSERT INTO "spot_fills"')).every((t) => t.includes('ON CONFLICT'))).toBe(true);
  });
});
