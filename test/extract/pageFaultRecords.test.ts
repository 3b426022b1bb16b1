import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { testSyncOptions } from '../support/testSync.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import { runSync } from '../../src/extract/runSync.js';
import type { SyncOptions } from '../../src/extract/syncOptions.js';
import { DAY_MS } from '../../src/api/endpoints.js';

// Issue 20 item 4: a page that is not full ends its window whatever its cursor fields say, and a
// page that fails a paging check still has its records stored (the watermark stays, the
// partition fails as before).

const e13Path = '/api/v2/margin/crossed/open-orders';
let sandbox: RunningSandbox;
let proxy: MutatingProxy;
const dbs: FreshDatabase[] = [];

beforeAll(async () => {
  // About 500 cross-margin orders per symbol for the main account: BTCUSDT's pages come back full.
  sandbox = await startTestSandbox({ scale: 'crossMarginOrders=2000' });
  proxy = await startMutatingProxy(sandbox.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  for (const d of dbs) await d.drop();
});

async function database(): Promise<FreshDatabase> {
  const fresh = await freshDatabase();
  dbs.push(fresh);
  return fresh;
}

function btcOrdersOnly(db: FreshDatabase['db']): SyncOptions {
  const main = sandboxAccounts(sandbox.accounts).find((a) => a.kind === 'main')!;
  return testSyncOptions(sandbox, db, [], {
    baseUrl: proxy.baseUrl, accounts: [main], sync: { streams: ['crossMarginOrders'], symbols: ['BTCUSDT'] },
    client: { ...testSyncOptions(sandbox, db).client, maxRetries: 2 },
  });
}

const mainUid = (): string => sandboxAccounts(sandbox.accounts).find((a) => a.kind === 'main')!.uid!;

describe('a page that is not full', () => {
  it('ends its window without its cursor fields being checked: the official E13 sample (maxId/minId "1" beside order 121211212122) syncs clean', async () => {
    const { db } = await database();
    const cTime = String(sandbox.world.now() - DAY_MS);
    // The shape of the official docs' E13 sample: one order, and maxId/minId "1".
    const sample = {
      orderList: [{
        symbol: 'BTCUSDT', orderId: '121211212122', clientOid: '1212121212121212', size: '0', amount: '0', priceAvg: '0',
        price: '2.1', force: 'gtc', enterPointSource: 'WEB', status: 'live', side: 'buy', baseSize: '1', quoteSize: '2.1',
        orderType: 'limit', loanType: 'normal', cTime, uTime: cTime,
      }],
      maxId: '1',
      minId: '1',
    };
    proxy.rewrite((a) => (a.path === e13Path && a.query.get('symbol') === 'BTCUSDT' ? { code: '00000', msg: 'success', requestTime: Date.now(), data: sample } : undefined));
    try {
      const result = await runSync(btcOrdersOnly(db));
      expect(result.errors).toEqual([]);
      expect(result.status).toBe('ok');
      const { rows } = await sql<{ order_id: string; problems: string[] }>`SELECT order_id, problems FROM cross_margin_orders`.execute(db);
      expect(rows).toEqual([{ order_id: '121211212122', problems: [] }]);
      const state = await sql<{ status: string; watermark: Date | null }>`SELECT status, watermark FROM sync_state WHERE stream = 'crossMarginOrders'`.execute(db);
      expect(state.rows[0]?.status).toBe('ok');
      expect(state.rows[0]?.watermark).not.toBeNull();
    } finally {
      proxy.rewrite(undefined);
    }
  });
});

describe('a full page whose cursor fails the paging check', () => {
  it('has its records stored while the partition fails and its watermark stays; the next run reads on from there', async () => {
    const { db } = await database();
    // Every full BTCUSDT page names a cursor (minId) below its own smallest order id.
    let faulted = 0;
    proxy.rewrite((a) => {
      if (a.path !== e13Path || a.query.get('symbol') !== 'BTCUSDT' || a.json?.data?.orderList?.length !== 100) return undefined;
      faulted++;
      return { ...a.json, data: { ...a.json.data, minId: '1' } };
    });
    let faultedIds: string[];
    try {
      const faulty = await runSync(btcOrdersOnly(db));
      expect(faulted).toBeGreaterThan(0);
      expect(faulty.status).toBe('partial');
      expect(faulty.errors.map((e) => e.code)).toContain('EXCHANGE_PAGING_FAULT');
      const stored = await sql<{ order_id: string }>`SELECT order_id FROM cross_margin_orders WHERE symbol = 'BTCUSDT'`.execute(db);
      faultedIds = stored.rows.map((r) => r.order_id);
      // Each faulted page's 100 records are stored.
      expect(faultedIds.length).toBeGreaterThanOrEqual(100);
      const state = await sql<{ status: string; watermark: Date | null }>`SELECT status, watermark FROM sync_state WHERE stream = 'crossMarginOrders'`.execute(db);
      expect(state.rows[0]?.status).not.toBe('ok');
      expect(state.rows[0]?.watermark ?? null).toBeNull();
    } finally {
      proxy.rewrite(undefined);
    }
    const clean = await runSync(btcOrdersOnly(db));
    expect(clean.errors).toEqual([]);
    const truth = (await (await fetch(`${sandbox.baseUrl}/_sandbox/truth?uid=${mainUid()}&resource=crossMarginOrders`)).text())
      .split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; record: { symbol: string } })
      .filter((l) => l.record.symbol === 'BTCUSDT').map((l) => l.id).sort();
    const all = await sql<{ order_id: string }>`SELECT order_id FROM cross_margin_orders WHERE symbol = 'BTCUSDT' ORDER BY order_id`.execute(db);
    expect(all.rows.map((r) => r.order_id).sort()).toEqual(truth);
    expect(truth).toEqual(expect.arrayContaining(faultedIds));
  });
});
