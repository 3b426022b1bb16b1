import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { control, standardKeys, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

let sandbox: RunningSandbox;
let main: AccountLine;
let demo: AccountLine;
let sub: AccountLine;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ({ main, demo, sub } = standardKeys(sandbox));
});
afterAll(() => sandbox.close());

const order = (clientOid: string, price = '20000') => ({ symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price, size: '0.001', clientOid });
const orderInfo = async (query: Record<string, string>) => (await call(sandbox.baseUrl, main, '/api/v2/spot/trade/orderInfo', { query })).json!.data as { orderId: string; status: string; clientOid: string }[];
const recentHistory = async () => ((await call(sandbox.baseUrl, main, '/api/v2/spot/trade/history-orders', { query: { startTime: String(Date.now() - 60_000) } })).json!.data as { orderId: string }[]).map((o) => o.orderId);
const place = async (clientOid: string) => (await call(sandbox.baseUrl, main, '/api/v2/spot/trade/place-order', { body: order(clientOid) })).json!.data as { orderId: string; clientOid: string };

describe('spot orders placed through E1 and E17 show up in E15 and X1', () => {
  it('E1: by orderId and clientOid in E15, and in the spot history', async () => {
    const placed = await place('wtr-e1');
    expect(placed.clientOid).toBe('wtr-e1');
    expect((await orderInfo({ orderId: placed.orderId }))[0]).toMatchObject({ orderId: placed.orderId, clientOid: 'wtr-e1', status: 'live' });
    expect((await orderInfo({ clientOid: 'wtr-e1' }))[0]?.orderId).toBe(placed.orderId);
    expect(await recentHistory()).toContain(placed.orderId);
  });

  it('E1: a clientOid repeated while its order is unfilled returns the same order (idempotency)', async () => {
    const first = await place('wtr-idem');
    const again = await place('wtr-idem');
    expect(again.orderId).toBe(first.orderId);
  });

  it('E17: successes appear in history; a repeated clientOid and a bad item fail per item', async () => {
    const r = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/batch-orders', {
      body: { batchMode: 'multiple', orderList: [order('wtr-b1'), order('wtr-b2'), order('wtr-b1'), { side: 'buy', orderType: 'market', size: '5', clientOid: 'wtr-b3' }] },
    });
    expect(r.json?.code).toBe('00000');
    const { successList, failureList } = r.json!.data as { successList: { orderId: string; clientOid: string }[]; failureList: { clientOid: string; errorCode: string; errorMsg: string }[] };
    expect(successList.map((s) => s.clientOid)).toEqual(['wtr-b1', 'wtr-b2']);
    expect(failureList).toEqual([
      { orderId: '', clientOid: 'wtr-b1', errorCode: '40017', errorMsg: expect.stringMatching(/clientOid 'wtr-b1'/) },
      { orderId: '', clientOid: 'wtr-b3', errorCode: '40019', errorMsg: 'Parameter symbol cannot be empty' },
    ]);
    const history = await recentHistory();
    for (const s of successList) expect(history).toContain(s.orderId);
  });

  it('E17 single mode uses the top-level symbol and ignores the items\'', async () => {
    const r = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/batch-orders', { body: { symbol: 'ETHUSDT', orderList: [{ ...order('wtr-single'), symbol: 'NOPE' }] } });
    const [ok] = r.json!.data.successList as { orderId: string }[];
    expect((await orderInfo({ orderId: ok!.orderId }))[0]).toMatchObject({ symbol: 'ETHUSDT' });
  });
});

describe('E4 cancel-and-replace', () => {
  it('cancels the old order and places the new one', async () => {
    const old = await place('wtr-r-old');
    const r = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/batch-cancel-replace-order', {
      body: { orderList: [{ orderId: old.orderId, symbol: 'BTCUSDT', price: '20001', size: '0.002', newClientOid: 'wtr-r-new' }] },
    });
    const [item] = r.json!.data as { orderId: string; clientOid: string; success: string }[];
    expect(item).toMatchObject({ success: 'success', clientOid: 'wtr-r-new' });
    expect((await orderInfo({ orderId: old.orderId }))[0]?.status).toBe('cancelled');
    expect((await orderInfo({ orderId: item!.orderId }))[0]?.status).toBe('live');
  });

  it('with a duplicate newClientOid: the old order is cancelled and the new one fails (spec §3)', async () => {
    const a = await place('wtr-dup-a');
    await place('wtr-dup-b');
    const r = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/batch-cancel-replace-order', {
      body: { orderList: [{ orderId: a.orderId, symbol: 'BTCUSDT', price: '20002', size: '0.001', newClientOid: 'wtr-dup-b' }] },
    });
    const [item] = r.json!.data as { success: string; msg: string }[];
    expect(item).toMatchObject({ success: 'failure', msg: expect.stringMatching(/Duplicate clientOid/) });
    expect((await orderInfo({ orderId: a.orderId }))[0]?.status).toBe('cancelled');
  });
});

describe('sub-accounts, keys and withdrawals', () => {
  it('E6 creates a sub-account that E10 lists; E7 adds a key that E8 lists without its secret and that works', async () => {
    const created = await call(sandbox.baseUrl, main, '/api/v2/user/batch-create-subaccount-and-apikey', { body: [{ subAccountName: 'wtrnewsb', passphrase: 'wtrpass123', label: 'first', permList: ['read'] }] });
    expect(created.json?.code, created.text).toBe('00000');
    const [newSub] = created.json!.data as { subAccountUid: string; subAccountApiKey: string }[];
    const list = await call(sandbox.baseUrl, main, '/api/v2/user/virtual-subaccount-list', { query: { limit: '500' } });
    expect(list.json!.data.subAccountList.map((s: { subAccountUid: string }) => s.subAccountUid)).toContain(newSub!.subAccountUid);
    const key = await call(sandbox.baseUrl, main, '/api/v2/user/create-virtual-subaccount-apikey', { body: { subAccountUid: newSub!.subAccountUid, passphrase: 'wtrpass456', label: 'second', permList: ['read'] } });
    const { subAccountApiKey, secretKey } = key.json!.data as { subAccountApiKey: string; secretKey: string };
    const keys = await call(sandbox.baseUrl, main, '/api/v2/user/virtual-subaccount-apikey-list', { query: { subAccountUid: newSub!.subAccountUid } });
    expect(keys.json!.data.map((k: { subAccountApiKey: string }) => k.subAccountApiKey).sort()).toEqual([newSub!.subAccountApiKey, subAccountApiKey].sort());
    expect(keys.text).not.toContain(secretKey);
    const use = await call(sandbox.baseUrl, { apiKey: subAccountApiKey, secretKey, passphrase: 'wtrpass456' }, '/api/v2/spot/wallet/deposit-records');
    expect(use.json?.code).toBe('00000');
  });

  it('E18 shows in X3 as pending, and settles through /_sandbox/settle', async () => {
    const w = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/withdrawal', { body: { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'TXwtr', size: '25', clientOid: 'wtr-w1' } });
    const { orderId } = w.json!.data as { orderId: string };
    const read = async () => (await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/withdrawal-records', { query: { orderId } })).json!.data[0] as { status: string; clientOid: string };
    expect(await read()).toMatchObject({ status: 'pending', clientOid: 'wtr-w1' });
    expect(await control(sandbox, 'settle', { uid: main.uid, resource: 'withdrawals', id: orderId })).toEqual({ settled: true });
    expect((await read()).status).toBe('success');
  });

  it('E9 books the withdrawal on the sub-account', async () => {
    const w = await call(sandbox.baseUrl, main, '/api/v2/broker/account/subaccount-withdrawal', { body: { subUid: sub.uid, coin: 'BTC', dest: 'internal_transfer', address: main.uid, amount: '0.01' } });
    expect(w.json?.code, w.text).toBe('00000');
    const records = await call(sandbox.baseUrl, sub, '/api/v2/spot/wallet/withdrawal-records', { query: { orderId: w.json!.data.orderId } });
    expect(records.json!.data).toHaveLength(1);
  });

  it('E3 places a demo futures order that E21 then lists', async () => {
    const r = await call(sandbox.baseUrl, demo, '/api/v2/mix/order/place-order', {
      body: { symbol: 'SETHSUSDT', productType: 'SUSDT-FUTURES', marginMode: 'crossed', marginCoin: 'SUSDT', size: '0.1', price: '3000', side: 'buy', tradeSide: 'open', orderType: 'limit', force: 'gtc', clientOid: 'wtr-e3' },
    });
    expect(r.json?.code, r.text).toBe('00000');
    const h = await call(sandbox.baseUrl, demo, '/api/v2/mix/order/orders-history', { query: { productType: 'SUSDT-FUTURES', orderId: r.json!.data.orderId } });
    expect(h.json!.data.entrustedList[0]).toMatchObject({ orderId: r.json!.data.orderId, clientOid: 'wtr-e3', symbol: 'SETHSUSDT' });
  });
});
