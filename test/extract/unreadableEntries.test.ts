import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { runSync } from '../../src/extract/runSync.js';
import { fillDifferences, fillsOnly, fillsPath } from './hostileExchange.js';

const strays: unknown[] = ['not a fill', null, 42, [1, 2]];

describe('page entries that are not records, and bytes that are not UTF-8', () => {
  let sandbox: RunningSandbox;
  let proxy: MutatingProxy;
  let fresh: FreshDatabase;
  let damaged = '';
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    proxy = await startMutatingProxy(sandbox.baseUrl);
    fresh = await freshDatabase();
    let strayed = false;
    proxy.rewrite((a) => {
      // A snapshot list (E16 positions) gets one stray entry too.
      if (a.path === '/api/v2/mix/position/all-position' && a.json?.code === '00000' && Array.isArray(a.json.data)) {
        a.json.data.push('garbled position');
        return a.json;
      }
      // Window pages only (the sync also asks for one fill, limit=1, to find where history starts).
      if (a.path !== fillsPath || !a.query.has('startTime') || a.json?.code !== '00000' || a.json.data.length === 0) return undefined;
      const data = a.json.data as Record<string, unknown>[];
      if (!strayed) {
        strayed = true;
        data.splice(1, 0, ...strays as Record<string, unknown>[]);
        return a.json;
      }
      if (damaged !== '' && !data.some((r) => r.tradeId === damaged)) return undefined;
      // One fill's orderId gets two bytes that are not UTF-8, in every answer that holds it.
      const fill = damaged === '' ? data[0]! : data.find((r) => r.tradeId === damaged)!;
      damaged = fill.tradeId as string;
      fill.orderId = '@@BAD@@';
      const [before, after] = JSON.stringify(a.json).split('@@BAD@@');
      return Buffer.concat([Buffer.from(`${before}12`), Buffer.from([0xff, 0xfe]), Buffer.from(`34${after}`)]);
    });
    const only = fillsOnly(sandbox, fresh.db, proxy.baseUrl);
    const result = await runSync({ ...only, sync: { ...only.sync, streams: ['spotFills', 'positions'] } });
    expect(result.errors).toEqual([]);
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    await fresh?.drop();
  });

  it('keeps a snapshot entry that is not an object raw and flagged', async () => {
    const { rows } = await sql<{ raw: unknown; symbol: string; problems: string[] }>`
      SELECT raw, symbol, problems FROM position_snapshots WHERE symbol LIKE 'unreadable-%'`.execute(fresh.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.raw).toBe('garbled position');
      expect(r.problems.join(' ')).toMatch(/a string, not a record object/);
    }
    const { rows: listed } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM data_quality WHERE source = 'position_snapshots' AND problem LIKE '%not a record object%'`.execute(fresh.db);
    expect(Number(listed[0]!.n)).toBe(rows.length);
  });

  it('keeps every entry that is not an object raw, flagged and listed in data quality', async () => {
    const { rows } = await sql<{ raw: unknown; trade_id: string; problems: string[] }>`
      SELECT raw, trade_id, problems FROM spot_fills WHERE trade_id LIKE 'unreadable-%' ORDER BY trade_id`.execute(fresh.db);
    expect(rows.map((r) => JSON.stringify(r.raw)).sort()).toEqual(strays.map((s) => JSON.stringify(s)).sort());
    for (const r of rows) expect(r.problems.join(' ')).toMatch(/not a record object; kept raw/);
    const { rows: listed } = await sql<{ record_id: string }>`SELECT record_id FROM data_quality WHERE source = 'spot_fills' AND record_id LIKE 'unreadable-%'`.execute(fresh.db);
    expect(listed.map((r) => r.record_id).sort()).toEqual(rows.map((r) => r.trade_id).sort());
  });

  it('stores bytes that are not UTF-8 as U+FFFD and flags the record', async () => {
    expect(damaged).not.toBe('');
    const { rows } = await sql<{ order_id: string; problems: string[] }>`SELECT order_id, problems FROM spot_fills WHERE trade_id = ${damaged}`.execute(fresh.db);
    expect(rows[0]!.order_id).toBe('12\uFFFD\uFFFD34');
    expect(rows[0]!.problems.join(' ')).toMatch(/U\+FFFD.*not valid UTF-8/);
    const { rows: others } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM spot_fills WHERE problems <> '{}' AND trade_id NOT LIKE 'unreadable-%'`.execute(fresh.db);
    expect(others[0]!.n).toBe('1');
  });
});

describe('a full page with an entry that is not a record', () => {
  let sandbox: RunningSandbox;
  let proxy: MutatingProxy;
  let fresh: FreshDatabase;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ scale: 'spotFills=2000' });
    proxy = await startMutatingProxy(sandbox.baseUrl);
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    await fresh?.drop();
  });

  it('is still a full page: the window is read on, and only the replaced fill is missing', async () => {
    const replaced = new Set<string>();
    proxy.rewrite((a) => {
      if (a.path !== fillsPath || a.page !== 1 || a.json?.code !== '00000' || a.json.data.length < 100) return undefined;
      const data = a.json.data as Record<string, string>[];
      replaced.add(data[40]!.tradeId!);
      (data as unknown[])[40] = 'garbled';
      return a.json;
    });
    const result = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(result.errors).toEqual([]);
    const differences = await fillDifferences(sandbox, fresh.db);
    // What differs: the replaced fills are missing and the entries that took their place are
    // stored, nothing else (no fill after them in their window is lost).
    const missing = differences.filter((d) => d.endsWith(': missing'));
    expect(missing.length).toBe(replaced.size);
    for (const d of missing) expect(d).toMatch(new RegExp(`\\|(${[...replaced].join('|')}): missing$`));
    const extra = differences.filter((d) => !d.endsWith(': missing'));
    expect(extra.length).toBe(1); // the same text each time, so one stand-in id
    expect(extra[0]).toMatch(/\|unreadable-[0-9a-f]{16}: stored but not in truth$/);
  });
});
