import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TruthRecord } from '../../../src/sandbox/world.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

const DAY = 86_400_000;
let sandbox: RunningSandbox;
let main: AccountLine;
let demo: AccountLine;
let truth: TruthRecord[];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'tiny' });
  main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key');
  demo = keyWhere(sandbox, (a) => a.demo, 'demo key');
  const text = await (await fetch(`${sandbox.baseUrl}/_sandbox/truth`)).text();
  truth = text.trim().split('\n').map((l) => JSON.parse(l) as TruthRecord);
});
afterAll(() => sandbox.close());

interface Stream {
  path: string;
  resource: TruthRecord['resource'];
  partition: string;
  query: Record<string, string>;
  /** Records of one page. */
  list: (data: any) => any[];
  /** The next page's idLessThan. */
  cursor: (data: any) => string;
  timeField: string;
  /** Window span in days; undefined = one window over everything. */
  spanDays?: number;
  /** Only the last N days can be read (history horizon). */
  horizonDays?: number;
  demo?: boolean;
  /** Extra truth filter, e.g. plan type. */
  keep?: (record: any) => boolean;
}

const last = (field: string) => (data: any[]) => String(data.at(-1)[field]);
const plain = (data: any) => data as any[];
const streams: Stream[] = [
  { path: '/api/v2/tax/margin-record', resource: 'marginRecords', partition: 'crossed', query: { marginType: 'crossed' }, list: plain, cursor: last('id'), timeField: 'ts', spanDays: 30 },
  { path: '/api/v2/tax/margin-record', resource: 'marginRecords', partition: 'isolated', query: { marginType: 'isolated' }, list: plain, cursor: last('id'), timeField: 'ts', spanDays: 30 },
  { path: '/api/v2/tax/spot-record', resource: 'taxSpotRecords', partition: 'all', query: {}, list: plain, cursor: last('id'), timeField: 'ts', spanDays: 30 },
  { path: '/api/v2/tax/future-record', resource: 'taxFutureRecords', partition: 'all', query: {}, list: plain, cursor: last('id'), timeField: 'ts', spanDays: 30 },
  // Without subUid, E19 lists only the transfers made from the caller's own account (transfersBySubUid.test.ts has the rest).
  { path: '/api/v2/spot/account/sub-main-trans-record', resource: 'transfers', partition: 'all', query: {}, list: plain, cursor: last('transferId'), timeField: 'ts', spanDays: 90, keep: (r) => r.fromUserId === main.uid },
  { path: '/api/v2/spot/wallet/deposit-records', resource: 'deposits', partition: 'all', query: {}, list: plain, cursor: last('orderId'), timeField: 'cTime' },
  { path: '/api/v2/spot/wallet/withdrawal-records', resource: 'withdrawals', partition: 'all', query: {}, list: plain, cursor: last('orderId'), timeField: 'cTime' },
  { path: '/api/v2/spot/trade/history-orders', resource: 'spotOrders', partition: 'all', query: {}, list: plain, cursor: last('orderId'), timeField: 'cTime', horizonDays: 90 },
  { path: '/api/v2/spot/trade/fills', resource: 'spotFills', partition: 'all', query: {}, list: plain, cursor: last('tradeId'), timeField: 'cTime', spanDays: 90 },
  { path: '/api/v2/spot/account/bills', resource: 'spotBills', partition: 'all', query: {}, list: plain, cursor: last('billId'), timeField: 'cTime', spanDays: 90 },
  { path: '/api/v2/mix/order/orders-history', resource: 'futuresOrders', partition: 'USDT-FUTURES', query: { productType: 'USDT-FUTURES' }, list: (d) => d.entrustedList, cursor: (d) => d.endId, timeField: 'cTime', horizonDays: 90 },
  { path: '/api/v2/mix/order/orders-history', resource: 'futuresOrders', partition: 'SUSDT-FUTURES', query: { productType: 'SUSDT-FUTURES' }, list: (d) => d.entrustedList, cursor: (d) => d.endId, timeField: 'cTime', horizonDays: 90, demo: true },
  { path: '/api/v2/mix/order/fills', resource: 'futuresFills', partition: 'COIN-FUTURES', query: { productType: 'COIN-FUTURES' }, list: (d) => d.fillList, cursor: (d) => d.endId, timeField: 'cTime', spanDays: 90 },
  { path: '/api/v2/mix/account/bill', resource: 'futuresBills', partition: 'USDC-FUTURES', query: { productType: 'USDC-FUTURES' }, list: (d) => d.bills, cursor: (d) => d.endId, timeField: 'cTime', spanDays: 30 },
  ...(['normal_plan', 'track_plan', 'profit_loss'] as const).map((planType): Stream => ({
    path: '/api/v2/mix/order/orders-plan-pending', resource: 'planOrders', partition: 'USDT-FUTURES', query: { productType: 'USDT-FUTURES', planType },
    list: (d) => d.entrustedList, cursor: (d) => d.endId, timeField: 'cTime', spanDays: 90, keep: (r) => r.planType === planType,
  })),
];

const pageSize = 7;

async function pageWindow(s: Stream, startTime: number, endTime: number): Promise<string[]> {
  const key = s.demo ? { ...demo, demo: true } : main;
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = { ...s.query, startTime: String(startTime), endTime: String(endTime), limit: String(pageSize), ...(cursor ? { idLessThan: cursor } : {}) };
    const r = await call(sandbox.baseUrl, key, s.path, { query });
    expect(r.json?.code, `${s.path} ${JSON.stringify(query)}: ${r.text.slice(0, 200)}`).toBe('00000');
    const page = s.list(r.json!.data);
    for (const rec of page) ids.push(String(rec[idFieldOf(s.resource)]));
    if (page.length < pageSize) return ids;
    cursor = s.cursor(r.json!.data);
  }
}

function idFieldOf(resource: string): string {
  return { marginRecords: 'id', taxSpotRecords: 'id', taxFutureRecords: 'id', transfers: 'transferId', spotFills: 'tradeId', futuresFills: 'tradeId', spotBills: 'billId', futuresBills: 'billId' }[resource] ?? 'orderId';
}

describe('paging a whole window by idLessThan returns every ground-truth record exactly once', () => {
  it.each(streams.map((s) => [`${s.resource}/${s.partition}${s.query.planType ? `/${s.query.planType}` : ''}`, s] as const))('%s', async (_name, s) => {
    const uid = s.demo ? demo.uid : main.uid;
    const now = Date.now();
    const from = s.horizonDays ? now - (s.horizonDays - 1) * DAY : 0;
    const expected = truth
      .filter((t) => t.uid === uid && t.resource === s.resource && t.partition === s.partition)
      .filter((t) => (!s.keep || s.keep(t.record)) && Number((t.record as any)[s.timeField]) >= from)
      .map((t) => t.id);
    expect(expected.length, 'the tiny world should hold some of these records').toBeGreaterThan(0);
    const times = truth.filter((t) => t.uid === uid && t.resource === s.resource).map((t) => Number((t.record as any)[s.timeField]));
    const start = Math.max(from, Math.min(...times));
    const end = Math.max(...times) + 1;
    const got: string[] = [];
    if (s.spanDays === undefined) got.push(...await pageWindow(s, start, end));
    else for (let w = start; w < end; w += s.spanDays * DAY) got.push(...await pageWindow(s, w, Math.min(w + s.spanDays * DAY, end)));
    expect(new Set(got).size, 'no record twice').toBe(got.length);
    expect([...got].sort()).toEqual([...expected].sort());
  });

  it('answers newest first within a page, and honours startTime inclusive / endTime exclusive', async () => {
    const records = truth.filter((t) => t.uid === main.uid && t.resource === 'spotBills').map((t) => t.record as { billId: string; cTime: string });
    const pick = records[Math.floor(records.length / 2)]!;
    const at = Number(pick.cTime);
    const inclusive = await call(sandbox.baseUrl, main, '/api/v2/spot/account/bills', { query: { startTime: String(at), endTime: String(at + 1), limit: '100' } });
    expect(inclusive.json!.data.map((b: { billId: string }) => b.billId)).toContain(pick.billId);
    const exclusive = await call(sandbox.baseUrl, main, '/api/v2/spot/account/bills', { query: { startTime: String(at - DAY), endTime: String(at), limit: '100' } });
    expect(exclusive.json!.data.map((b: { billId: string }) => b.billId)).not.toContain(pick.billId);
    const ids = exclusive.json!.data.map((b: { billId: string }) => BigInt(b.billId));
    expect(ids).toEqual([...ids].sort((a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)));
  });
});

describe('E13 cross-margin orders (symbol required; cursor minId)', () => {
  it('pages every symbol\'s orders exactly once', async () => {
    const records = truth.filter((t) => t.uid === main.uid && t.resource === 'crossMarginOrders').map((t) => t.record as { orderId: string; symbol: string; cTime: string });
    expect(records.length).toBeGreaterThan(0);
    const start = Math.min(...records.map((r) => Number(r.cTime)));
    const got: string[] = [];
    for (const symbol of new Set(records.map((r) => r.symbol))) {
      let cursor: string | undefined;
      for (;;) {
        const r = await call(sandbox.baseUrl, main, '/api/v2/margin/crossed/open-orders', {
          query: { symbol, startTime: String(start), limit: String(pageSize), ...(cursor ? { idLessThan: cursor } : {}) },
        });
        expect(r.json?.code).toBe('00000');
        const { orderList, maxId, minId } = r.json!.data as { orderList: { orderId: string }[]; maxId: string; minId: string };
        got.push(...orderList.map((o) => o.orderId));
        if (orderList.length < pageSize) break;
        expect(maxId).toBe(orderList[0]!.orderId);
        cursor = minId;
      }
    }
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual(records.map((r) => r.orderId).sort());
  });
});

describe('E10 sub-accounts (cursor endId, a Number)', () => {
  it('pages every sub-account exactly once', async () => {
    const seen: string[] = [];
    let cursor: number | undefined;
    for (;;) {
      const r = await call(sandbox.baseUrl, main, '/api/v2/user/virtual-subaccount-list', { query: { limit: '1', ...(cursor ? { idLessThan: String(cursor) } : {}) } });
      const { endId, subAccountList } = r.json!.data as { endId: number | null; subAccountList: { subAccountUid: string }[] };
      if (subAccountList.length === 0) break;
      expect(typeof endId).toBe('number');
      seen.push(...subAccountList.map((s) => s.subAccountUid));
      cursor = endId!;
    }
    expect(seen.sort()).toEqual([...main.subUids].sort());
  });
});
