import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { keyWhere, standardKeys, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call, type SignedCall } from '../../support/signedClient.js';

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

const now = () => Date.now();
const span = (days: number, endAgoDays = 0) => ({ startTime: String(now() - (days + endAgoDays) * DAY), endTime: String(now() - endAgoDays * DAY) });

type Case = [string, () => AccountLine, string, SignedCall | (() => SignedCall), string, RegExp];
const cases: Case[] = [
  ['E5 without startTime', () => main, '/api/v2/tax/margin-record', { query: { endTime: String(Date.now()) } }, '40019', /Parameter startTime cannot be empty/],
  ['E21 without productType', () => main, '/api/v2/mix/order/orders-history', {}, '40019', /productType/],
  ['E11 without planType', () => main, '/api/v2/mix/order/orders-plan-pending', { query: { productType: 'USDT-FUTURES' } }, '40019', /planType/],
  ['E13 without symbol', () => main, '/api/v2/margin/crossed/open-orders', { query: { startTime: '1' } }, '40019', /symbol/],
  ['E15 without orderId or clientOid', () => main, '/api/v2/spot/trade/orderInfo', {}, '40019', /orderId or clientOid/],
  ['E5 with an unknown marginType', () => main, '/api/v2/tax/margin-record', { query: { ...span(1), marginType: 'cross' } }, '40017', /marginType must be one of isolated, crossed/],
  ['E11 with an unknown planType', () => main, '/api/v2/mix/order/orders-plan-pending', { query: { productType: 'USDT-FUTURES', planType: 'moon_plan' } }, '40017', /planType/],
  ['E21 with an unknown productType', () => main, '/api/v2/mix/order/orders-history', { query: { productType: 'BTC-FUTURES' } }, '40017', /productType must be one of/],
  ['E5 with a non-numeric startTime', () => main, '/api/v2/tax/margin-record', { query: { startTime: 'yesterday', endTime: String(Date.now()) } }, '40017', /startTime must be Unix time in milliseconds/],
  ['E5 with limit 501 (over the max is rejected, not clamped)', () => main, '/api/v2/tax/margin-record', { query: { ...span(1), limit: '501' } }, '40017', /limit must be at most 500/],
  ['E21 with limit 101', () => main, '/api/v2/mix/order/orders-history', { query: { productType: 'USDT-FUTURES', limit: '101' } }, '40017', /at most 100/],
  ['E20 with limit 0', () => main, '/api/v2/spot/wallet/deposit-records', { query: { limit: '0' } }, '40017', /limit must be a whole number/],
  ['E5 over 30 days', () => main, '/api/v2/tax/margin-record', { query: span(31) }, '00001', /cannot be greater than 30 days/],
  ['tax spot-record over 30 days', () => main, '/api/v2/tax/spot-record', { query: span(30.5) }, '00001', /30 days/],
  ['X6 futures bills over 30 days', () => main, '/api/v2/mix/account/bill', { query: { productType: 'USDT-FUTURES', ...span(31) } }, '00001', /30 days/],
  ['E19 over 90 days', () => main, '/api/v2/spot/account/sub-main-trans-record', { query: span(91) }, '40705', /cannot exceed 90 days/],
  ['E11 over three months', () => main, '/api/v2/mix/order/orders-plan-pending', { query: { productType: 'USDT-FUTURES', planType: 'normal_plan', ...span(91) } }, '40705', /90 days/],
  ['E21 with startTime older than 90 days', () => main, '/api/v2/mix/order/orders-history', { query: { productType: 'USDT-FUTURES', ...span(10, 85) } }, '40704', /last three months/],
  ['X1 with startTime older than 90 days', () => main, '/api/v2/spot/trade/history-orders', { query: span(5, 88) }, '40704', /three months/],
  ['E5 with startTime after endTime', () => main, '/api/v2/tax/margin-record', { query: { startTime: String(now()), endTime: String(now() - DAY) } }, '40017', /must not be after endTime/],
  ['a live key with a demo productType', () => main, '/api/v2/mix/account/accounts', { query: { productType: 'SUSDT-FUTURES' } }, '40017', /demo product type/],
  ['a demo key with a live productType', () => demo, '/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }, '40017', /live product type/],
  ['a demo productType with a live symbol', () => demo, '/api/v2/mix/position/single-position', { query: { productType: 'SUSDT-FUTURES', symbol: 'BTCUSDT', marginCoin: 'SUSDT' } }, '40017', /symbol BTCUSDT does not match/],
  ['E3 with a demo symbol and a live margin coin', () => demo, '/api/v2/mix/order/place-order', {
    body: { symbol: 'SBTCSUSDT', productType: 'SUSDT-FUTURES', marginMode: 'isolated', marginCoin: 'USDT', size: '0.01', price: '60000', side: 'buy', orderType: 'limit' },
  }, '40017', /marginCoin USDT does not match/],
  ['E16 with a lower-case marginCoin', () => main, '/api/v2/mix/position/all-position', { query: { productType: 'USDT-FUTURES', marginCoin: 'usdt' } }, '40017', /marginCoin must be upper case/],
  ['E1 with an unknown side', () => main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'long', orderType: 'market', size: '1' } }, '40017', /side must be one of buy, sell/],
  ['E1 limit without price', () => main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', size: '1' } }, '40019', /price/],
  ['E1 with a number where a String belongs', () => main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: 1 } }, '40017', /size must be a String/],
  ['E1 with receiveWindow over 60 s', () => main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '1', receiveWindow: '70000' } }, '40079', /60000/],
  ['E15 outside its receiveWindow', () => main, '/api/v2/spot/trade/orderInfo', { query: { orderId: '1', requestTime: String(now() - 20_000), receiveWindow: '5000' } }, '40078', /receiveWindow/],
  ['a POST body that is not JSON', () => main, '/api/v2/spot/trade/place-order', { body: '{"symbol": ' }, '40017', /not valid JSON/],
  ['E9 from a non-broker account', () => sub, '/api/v2/broker/account/subaccount-withdrawal', { body: { subUid: '1', coin: 'USDT', dest: 'on_chain', address: 'x', amount: '1' } }, '40014', /ND broker/],
  ['E9 with a coin outside its list', () => main, '/api/v2/broker/account/subaccount-withdrawal', { body: { subUid: '1', coin: 'DOGE', dest: 'on_chain', address: 'x', amount: '1' } }, '40017', /coin must be one of BTC/],
  ['E6 from a sub-account', () => sub, '/api/v2/user/batch-create-subaccount-and-apikey', { body: [] }, '40014', /main account/],
  ['E6 with six items', () => main, '/api/v2/user/batch-create-subaccount-and-apikey', {
    body: Array.from({ length: 6 }, () => ({ subAccountName: 'abcdefgh', passphrase: 'pass12345', label: 'x' })),
  }, '40017', /at most 5/],
  ['E6 with a bad passphrase', () => main, '/api/v2/user/batch-create-subaccount-and-apikey', { body: [{ subAccountName: 'abcdefgh', passphrase: 'short', label: 'x' }] }, '40017', /passphrase/],
  ['E7 for another account\'s sub-account', () => main, '/api/v2/user/create-virtual-subaccount-apikey', { body: { subAccountUid: '42', passphrase: 'pass12345', label: 'x' } }, '40017', /subAccountUid 42 is not a sub-account/],
  ['E7 with a label over 20 characters', () => main, '/api/v2/user/create-virtual-subaccount-apikey', () => ({ body: { subAccountUid: sub.uid, passphrase: 'pass12345', label: 'x'.repeat(21) } }), '40017', /label must be at most 20/],
  ['E7 with 31 whitelist IPs', () => main, '/api/v2/user/create-virtual-subaccount-apikey', () => ({
    body: { subAccountUid: sub.uid, passphrase: 'pass12345', label: 'x', ipList: Array.from({ length: 31 }, (_, i) => `10.0.0.${i}`) },
  }), '40017', /ipList has 31 items; at most 30/],
  ['E7 with an unknown permission', () => main, '/api/v2/user/create-virtual-subaccount-apikey', () => ({ body: { subAccountUid: sub.uid, passphrase: 'pass12345', label: 'x', permList: ['withdraw'] } }), '40017', /permList/],
  ['E17 with 51 orders', () => main, '/api/v2/spot/trade/batch-orders', {
    body: { symbol: 'BTCUSDT', orderList: Array.from({ length: 51 }, () => ({ side: 'buy', orderType: 'market', size: '10' })) },
  }, '40017', /51 items; at most 50/],
  ['E4 with 51 items', () => main, '/api/v2/spot/trade/batch-cancel-replace-order', {
    body: { orderList: Array.from({ length: 51 }, () => ({ orderId: '1', symbol: 'BTCUSDT', price: '1', size: '1' })) },
  }, '40017', /at most 50/],
];

describe('request validation answers the exchange\'s codes with a message naming the problem', () => {
  it.each(cases)('%s', async (_name, who, path, options, code, message) => {
    const r = await call(sandbox.baseUrl, who(), path, typeof options === 'function' ? options() : options);
    expect(r.status).toBe(400);
    expect(r.json?.code, r.text).toBe(code);
    expect(r.json?.msg).toMatch(message);
    expect(r.json?.data).toBeNull();
  });

  it('accepts exactly the maximum span and limit', async () => {
    const r = await call(sandbox.baseUrl, main, '/api/v2/tax/margin-record', { query: { ...span(30), limit: '500' } });
    expect(r.json?.code).toBe('00000');
  });

  it('makes the tax span a setting (366 days in another copy of the docs)', async () => {
    const wide = await startTestSandbox({ taxSpanDays: 366 });
    try {
      const key = keyWhere(wide, (a) => a.main && a.broker && a.perms.length === 4);
      expect((await call(wide.baseUrl, key, '/api/v2/tax/margin-record', { query: span(300) })).json?.code).toBe('00000');
      expect((await call(wide.baseUrl, key, '/api/v2/tax/margin-record', { query: span(367) })).json?.msg).toMatch(/366 days/);
    } finally {
      await wide.close();
    }
  });
});
