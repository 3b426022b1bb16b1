import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { runSync } from '../../src/extract/runSync.js';
import { fillDifferences, fillsOnly, fillsPath, fillsState } from './hostileExchange.js';

let sandbox: RunningSandbox;
let proxy: MutatingProxy;
const dbs: FreshDatabase[] = [];
const DAY = 86_400_000;

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'spotFills=2000' });
  proxy = await startMutatingProxy(sandbox.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  for (const d of dbs) await d.drop();
});

async function database(): Promise<FreshDatabase> {
  const d = await freshDatabase();
  dbs.push(d);
  return d;
}

type Fill = { tradeId: string; cTime: string };

describe('records with out-of-order ids', () => {
  it('stop the partition instead of skipping the rest of the window; a rerun gets everything', async () => {
    const fresh = await database();
    // A full page 1 gets one fill with a tiny id in its middle; a page 2 starts with an id far
    // above the cursor it was asked for. Either would have moved the cursor past real fills.
    proxy.rewrite((a) => {
      if (a.path !== fillsPath || a.json?.code !== '00000') return undefined;
      const data = a.json.data as Fill[];
      if (data.length < 100) return undefined;
      if (a.page === 1) data[50] = { ...data[50]!, tradeId: '7' };
      else data[0] = { ...data[0]!, tradeId: '999999999999999999' };
      return a.json;
    });
    const faulty = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(proxy.rewritten).toBeGreaterThan(0);
    expect(faulty.status).toBe('partial');
    expect(faulty.errors.map((e) => e.code)).toContain('EXCHANGE_PAGING_FAULT');
    expect(faulty.errors.map((e) => e.message).join('\n')).toMatch(/not newest first|holds tradeId/);
    expect((await fillsState(fresh.db))?.watermark ?? null).toBeNull();
    // The altered fills were never stored under their false ids.
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM spot_fills WHERE trade_id IN ('7', '999999999999999999')`.execute(fresh.db);
    expect(rows[0]!.n).toBe('0');

    proxy.rewrite(undefined);
    const clean = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(clean.errors).toEqual([]);
    expect(await fillDifferences(sandbox, fresh.db)).toEqual([]);
  });
});

describe('a false id on the last record of a page, where the page still looks in order', () => {
  it('is caught by the next page, which does not begin with that record: never stored, and a rerun gets everything', async () => {
    const fresh = await database();
    proxy.rewrite((a) => {
      if (a.path !== fillsPath || a.page !== 1 || a.json?.code !== '00000') return undefined;
      const data = a.json.data as Fill[];
      if (data.length < 100) return undefined;
      data[data.length - 1] = { ...data[data.length - 1]!, tradeId: '7' };
      return a.json;
    });
    const faulty = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(proxy.rewritten).toBeGreaterThan(0);
    expect(faulty.status).toBe('partial');
    expect(faulty.errors.map((e) => e.message).join('\n')).toMatch(/above the last record of the page before \(7\)/);
    expect((await fillsState(fresh.db))?.watermark ?? null).toBeNull();
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM spot_fills WHERE trade_id = '7'`.execute(fresh.db);
    expect(rows[0]!.n).toBe('0');

    proxy.rewrite(undefined);
    const clean = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(clean.errors).toEqual([]);
    expect(await fillDifferences(sandbox, fresh.db)).toEqual([]);
  });
});

describe('records whose time lies outside the requested window', () => {
  it('are kept and flagged, and never move the cursor past the records of the window', async () => {
    const fresh = await database();
    const moved = new Set<string>();
    // On every full page 1: fill 5 is moved 400 days before its window; the last fill (the one
    // the cursor is read from) is moved too, and a made-up fill with a tiny id and a time after
    // the window is slipped in. None of them may set the cursor.
    proxy.rewrite((a) => {
      if (a.path !== fillsPath || a.page !== 1 || a.json?.code !== '00000') return undefined;
      const data = a.json.data as Fill[];
      if (data.length < 100) return undefined;
      const before = String(Number(a.query.get('startTime')) - 400 * DAY);
      moved.add(data[5]!.tradeId);
      data[5] = { ...data[5]!, cTime: before };
      data[data.length - 1] = { ...data[data.length - 1]!, cTime: before };
      data.splice(10, 0, { ...data[20]!, tradeId: '3', cTime: String(Number(a.query.get('endTime')) + DAY) });
      moved.add('3');
      return a.json;
    });
    const result = await runSync(fillsOnly(sandbox, fresh.db, proxy.baseUrl));
    expect(result.errors).toEqual([]);
    expect(moved.size).toBeGreaterThan(2);
    // Nothing lost: every fill of the truth is stored. The last fill of each page was read again,
    // unchanged, with the next page (the cursor did not pass it); what differs is exactly fill 5
    // of each page (stored as received) and the made-up fill, and exactly those are flagged.
    const differences = await fillDifferences(sandbox, fresh.db);
    expect(differences.filter((d) => d.endsWith('missing'))).toEqual([]);
    const changed = new Set(differences.map((d) => /\|(\d+):/.exec(d)?.[1]));
    expect(changed).toEqual(moved);
    const { rows } = await sql<{ trade_id: string; problems: string[] }>`SELECT trade_id, problems FROM spot_fills WHERE problems <> '{}'`.execute(fresh.db);
    expect(new Set(rows.map((r) => r.trade_id))).toEqual(moved);
    for (const r of rows) expect(r.problems.join(' ')).toMatch(/outside the requested window/);
    const { rows: listed } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM data_quality WHERE source = 'spot_fills' AND problem LIKE '%outside the requested window%'`.execute(fresh.db);
    expect(Number(listed[0]!.n)).toBe(moved.size);
  });
});
