import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList, type EndpointName } from '../../../src/api/endpoints.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { standardKeys, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

const DAY = 86_400_000;
let sandbox: RunningSandbox;
let main: AccountLine;
let demo: AccountLine;
let sub: AccountLine;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ({ main, demo, sub } = standardKeys(sandbox));
});
afterAll(() => sandbox.close());

type Who = 'main' | 'demo' | 'none';
interface Probe {
  who: Who;
  query?: () => Record<string, string>;
  body?: () => unknown;
  /** Checks `data`; list probes check their first record's key fields. */
  check: (data: any) => void;
}

const recent = () => ({ startTime: String(Date.now() - 25 * DAY), endTime: String(Date.now()) });
const arrayOf = (field: string) => (data: any) => {
  expect(Array.isArray(data)).toBe(true);
  if (data.length > 0) expect(typeof data[0][field]).toBe('string');
};
const wrapper = (list: string, cursor: string, field: string) => (data: any) => {
  expect(Array.isArray(data[list])).toBe(true);
  expect(cursor in data).toBe(true);
  if (data[list].length > 0) expect(data[cursor]).toBe(data[list].at(-1)[field]);
};
const placed = { orderId: '' };
const spotOrder = { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '20000', size: '0.001' };

// One valid call per endpoint. Ordered so that E1 runs before E4 and E15, which use its order.
const probes: Record<EndpointName, Probe> = {
  placeSpotOrder: { who: 'main', body: () => ({ ...spotOrder, clientOid: 'shape-e1' }), check: (d) => { expect(d.clientOid).toBe('shape-e1'); placed.orderId = d.orderId; } },
  demoContracts: { who: 'none', query: () => ({ productType: 'susdt-futures' }), check: (d) => { arrayOf('symbol')(d); expect(d[0].symbol).toMatch(/^S/); expect(Array.isArray(d[0].supportMarginCoins)).toBe(true); } },
  placeFuturesOrder: {
    who: 'demo', check: (d) => expect(typeof d.orderId).toBe('string'),
    body: () => ({ symbol: 'SBTCSUSDT', productType: 'SUSDT-FUTURES', marginMode: 'isolated', marginCoin: 'SUSDT', size: '0.01', price: '60000', side: 'buy', tradeSide: 'open', orderType: 'limit', force: 'gtc', clientOid: 'shape-e3' }),
  },
  batchCancelReplace: { who: 'main', body: () => ({ orderList: [{ orderId: placed.orderId, symbol: 'BTCUSDT', price: '20001', size: '0.001' }] }), check: (d) => { expect(d).toHaveLength(1); expect(['success', 'failure']).toContain(d[0].success); } },
  marginRecords: { who: 'main', query: recent, check: arrayOf('id') },
  batchCreateSubAccounts: { who: 'main', body: () => [{ subAccountName: 'shapeabc', passphrase: 'shapepass1', label: 'shape', permList: ['read'] }], check: (d) => { expect(d[0].subAccountName).toBeTypeOf('string'); expect(d[0].secretKey).toBeTypeOf('string'); } },
  createSubAccountApiKey: { who: 'main', body: () => ({ subAccountUid: sub.uid, passphrase: 'shapepass2', label: 'shape2', permList: ['read'] }), check: (d) => { expect(d.subAccountUid).toBe(sub.uid); expect(d.secretKey).toBeTypeOf('string'); } },
  subAccountApiKeys: { who: 'main', query: () => ({ subAccountUid: sub.uid }), check: (d) => { arrayOf('subAccountApiKey')(d); expect(d[0].secretKey).toBeUndefined(); } },
  brokerSubWithdrawal: { who: 'main', body: () => ({ subUid: sub.uid, coin: 'USDT', dest: 'internal_transfer', address: main.uid, amount: '1' }), check: (d) => expect(d.orderId).toBeTypeOf('string') },
  subAccounts: { who: 'main', check: (d) => { expect(Array.isArray(d.subAccountList)).toBe(true); expect(typeof d.endId).toBe('number'); } },
  pendingPlanOrders: { who: 'main', query: () => ({ planType: 'normal_plan', productType: 'USDT-FUTURES' }), check: wrapper('entrustedList', 'endId', 'orderId') },
  singlePosition: { who: 'main', query: () => ({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT', marginCoin: 'USDT' }), check: (d) => expect(Array.isArray(d)).toBe(true) },
  crossMarginOpenOrders: { who: 'main', query: () => ({ symbol: 'BTCUSDT', startTime: String(Date.now() - 300 * DAY) }), check: (d) => { wrapper('orderList', 'minId', 'orderId')(d); expect('maxId' in d).toBe(true); } },
  futuresAccounts: { who: 'main', query: () => ({ productType: 'USDT-FUTURES' }), check: (d) => { arrayOf('marginCoin')(d); expect('unionTotalMagin' in d[0]).toBe(true); } },
  spotOrderInfo: { who: 'main', query: () => ({ orderId: placed.orderId }), check: (d) => { expect(d).toHaveLength(1); expect(d[0].orderId).toBe(placed.orderId); } },
  allPositions: { who: 'main', query: () => ({ productType: 'USDT-FUTURES' }), check: (d) => expect(Array.isArray(d)).toBe(true) },
  batchPlaceSpotOrders: { who: 'main', body: () => ({ symbol: 'BTCUSDT', orderList: [{ ...spotOrder, clientOid: 'shape-e17' }] }), check: (d) => { expect(d.successList).toHaveLength(1); expect(d.failureList).toEqual([]); } },
  spotWithdrawal: { who: 'main', body: () => ({ coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'TXshapeaddress', size: '20' }), check: (d) => expect(d.orderId).toBeTypeOf('string') },
  transfers: { who: 'main', query: recent, check: arrayOf('transferId') },
  deposits: { who: 'main', check: arrayOf('orderId') },
  futuresHistoryOrders: { who: 'main', query: () => ({ productType: 'USDT-FUTURES' }), check: wrapper('entrustedList', 'endId', 'orderId') },
  spotHistoryOrders: { who: 'main', check: arrayOf('orderId') },
  spotFills: { who: 'main', query: recent, check: arrayOf('tradeId') },
  withdrawals: { who: 'main', check: arrayOf('orderId') },
  spotBills: { who: 'main', query: recent, check: arrayOf('billId') },
  futuresFills: { who: 'main', query: () => ({ productType: 'USDT-FUTURES', ...recent() }), check: wrapper('fillList', 'endId', 'tradeId') },
  futuresBills: { who: 'main', query: () => ({ productType: 'USDT-FUTURES', ...recent() }), check: wrapper('bills', 'endId', 'billId') },
  taxSpotRecords: { who: 'main', query: recent, check: arrayOf('id') },
  taxFutureRecords: { who: 'main', query: recent, check: arrayOf('id') },
  publicCoins: { who: 'none', check: (d) => { arrayOf('coin')(d); expect(d.length).toBeGreaterThan(3); } },
  publicSymbols: { who: 'none', check: (d) => { arrayOf('symbol')(d); expect(d.map((s: { symbol: string }) => s.symbol)).toContain('$WIFUSDT'); } },
  marketCandles: { who: 'none', query: () => ({ symbol: 'BTCUSDT', granularity: '1h', limit: '5' }), check: (d) => { expect(d).toHaveLength(5); expect(d[0]).toHaveLength(8); expect(typeof d[0][4]).toBe('string'); } },
  marketHistoryCandles: { who: 'none', query: () => ({ symbol: 'ETHUSDT', granularity: '1day', endTime: String(Date.now() - 400 * DAY), limit: '3' }), check: (d) => { expect(d).toHaveLength(3); expect(Number(d[2][0])).toBeLessThan(Date.now() - 400 * DAY); } },
};

describe('every endpoint answers a valid request with the success envelope and its shape', () => {
  it.each(endpointList.map((e) => [`${e.id} ${e.method} ${e.path}`, e.name] as const))('%s', async (_label, name) => {
    const probe = probes[name];
    const endpoint = endpointList.find((e) => e.name === name)!;
    const key = probe.who === 'main' ? main : probe.who === 'demo' ? demo : null;
    const r = await call(sandbox.baseUrl, key, endpoint.path, {
      method: endpoint.method, ...(probe.query ? { query: probe.query() } : {}), ...(probe.body ? { body: probe.body() } : endpoint.method === 'POST' ? { body: {} } : {}),
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.json).toMatchObject({ code: '00000', msg: 'success' });
    expect(typeof r.json!.requestTime).toBe('number');
    probe.check(r.json!.data);
  });

  it('answers an unknown path, or the wrong method, with a 404 envelope', async () => {
    const unknown = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: '40404', data: null });
    const wrongMethod = await call(sandbox.baseUrl, main, '/api/v2/tax/margin-record', { method: 'POST', body: {} });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.json?.msg).toContain('use GET');
  });
});
