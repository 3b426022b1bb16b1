import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { checkRecord } from '../../src/normalize/checkRecord.js';
import { recordShapes } from '../../src/normalize/recordShapes.js';
import type { CheckedResource } from '../../src/normalize/recordShapes.js';

const spotOrder = {
  userId: '1001', symbol: 'BTCUSDT', orderId: '1200000000000000001', clientOid: 'c1', price: '43000.5', size: '0.01',
  orderType: 'limit', side: 'buy', status: 'filled', priceAvg: '43000.5', baseVolume: '0.01', quoteVolume: '430.005',
  enterPointSource: 'API', orderSource: 'normal', cancelReason: '',
  feeDetail: '{"newFees":{"c":0,"d":-0.0416,"r":0,"t":-0.00001}}', cTime: '1700000000000', uTime: '1700000000500',
};

const deposit = {
  orderId: '55', tradeId: '0xabc', coin: 'USDT', type: 'deposit', dest: 'internal', size: '100', status: 'success',
  fromAddress: 'a', toAddress: 'b', chain: '', cTime: '1700000000000', uTime: '1700000000000',
};

describe('checkRecord', () => {
  it('a good record has no problems, whatever spelling of a known enum it uses', () => {
    expect(checkRecord('spotOrders', spotOrder)).toEqual([]);
    expect(checkRecord('deposits', deposit)).toEqual([]);
    expect(checkRecord('crossMarginOrders', {
      orderId: '9', symbol: 'BTCUSDT', status: 'partially_fill', side: 'systemRepay-selll', cTime: '1700000000',
    })).toEqual([]);
  });

  it('flags an amount the API never sends negative, but not zero written with a minus, nor a signed field', () => {
    expect(checkRecord('deposits', { ...deposit, size: '-1e5' })).toEqual([
      { field: 'size', code: 'negative_amount', message: 'size: "-1e5" is negative, a sign the API never uses for this field; kept raw, left out of the ledger' },
    ]);
    expect(checkRecord('deposits', { ...deposit, size: '-0.000' })).toEqual([]);
    expect(checkRecord('spotOrders', { ...spotOrder, priceAvg: '-1' }).map((p) => p.code)).toEqual(['negative_amount']);
    expect(checkRecord('deposits', { ...deposit, size: '-1,5' }).map((p) => p.code)).toEqual(['bad_number']);
    // A futures bill's amount is signed: a loss is negative.
    expect(checkRecord('futuresBills', { billId: '1', coin: 'USDT', businessType: 'close_long', amount: '-3.2', cTime: '1700000000000' })).toEqual([]);
  });

  it('an unknown extra field is not a problem (the raw record keeps it)', () => {
    expect(checkRecord('deposits', { ...deposit, brandNewField: 'x' })).toEqual([]);
  });

  it('flags a missing required field, an empty one, and null, but not an empty optional one', () => {
    const { orderId: _dropped, ...noId } = spotOrder;
    expect(checkRecord('spotOrders', { ...noId, symbol: '', status: null, priceAvg: '' })).toEqual([
      { field: 'orderId', code: 'missing', message: 'required field orderId is missing' },
      { field: 'symbol', code: 'missing', message: 'required field symbol is empty' },
      { field: 'status', code: 'missing', message: 'required field status is missing' },
    ]);
  });

  it('flags an unknown enum value, a garbage number and a bad time', () => {
    expect(checkRecord('deposits', { ...deposit, status: 'teleported', size: '111,1', cTime: '17000' })).toEqual([
      { field: 'size', code: 'bad_number', message: 'size: not a decimal number: "111,1"' },
      { field: 'status', code: 'unknown_enum', message: 'status: unknown walletStatus "teleported"; known values: pending, success, failed' },
      { field: 'cTime', code: 'bad_time', message: 'cTime: timestamp 17000 has 5 digits; expected 13 (milliseconds) or 10 (seconds)' },
    ]);
  });

  it('flags bad feeDetail JSON on a spot order, and a bad fill array on a futures fill', () => {
    const order = checkRecord('spotOrders', { ...spotOrder, feeDetail: '{"newFees":{"t":' });
    expect(order).toHaveLength(1);
    expect(order[0]).toMatchObject({ field: 'feeDetail', code: 'bad_fee_detail' });
    expect(order[0]?.message).toMatch(/not valid JSON/);
    const fill = checkRecord('futuresFills', {
      tradeId: '1', orderId: '2', symbol: 'BTCUSDT', side: 'sell', price: '43000', baseVolume: '0.1', cTime: '1700000000000',
      feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalFee: 'abc' }],
    });
    expect(fill).toEqual([{ field: 'feeDetail', code: 'bad_fee_detail', message: 'feeDetail: [0].totalFee: not a decimal number: "abc"' }]);
  });

  it("flags the spec's own garbage example: unionTotalMagin \"111,1\"", () => {
    const problems = checkRecord('futuresAccounts', { marginCoin: 'USDT', available: '10', unionTotalMagin: '111,1' });
    expect(problems.map((p) => [p.field, p.code])).toEqual([['unionTotalMagin', 'bad_number']]);
  });

  it('accepts a numeric id (E10 sends numbers) and lossless numbers', () => {
    const record = parse('{"subAccountUid":123456,"status":"normal","cTime":"1700000000000"}');
    expect(checkRecord('subAccounts', record)).toEqual([]);
    expect(checkRecord('subAccounts', { subAccountUid: { nested: 1 }, status: 'normal' })).toEqual([
      { field: 'subAccountUid', code: 'not_text', message: 'subAccountUid must be text, got object' },
    ]);
  });

  it('a non-object record is one problem', () => {
    for (const raw of [null, 'x', [1]]) {
      expect(checkRecord('transfers', raw)).toEqual([{ field: '', code: 'not_an_object', message: 'a transfers record must be a JSON object' }]);
    }
  });

  it('every resource flags an empty object for each required field', () => {
    for (const resource of Object.keys(recordShapes) as CheckedResource[]) {
      const required = Object.entries(recordShapes[resource]).filter(([, spec]) => !spec.endsWith('?')).map(([field]) => field);
      expect(required.length).toBeGreaterThan(0);
      expect(checkRecord(resource, {}).map((p) => p.field)).toEqual(required);
    }
  });
});

describe("checkRecord catches the sandbox's planted bad records", () => {
  it('truncated feeDetail, dest "lightning", a spot bill without balance', () => {
    const order = checkRecord('spotOrders', { ...spotOrder, feeDetail: '{"newFees":{"c":0,"d":0,"deduction":false,"r":-0.0012,"t":-0.0012' });
    expect(order.map((p) => p.code)).toEqual(['bad_fee_detail']);
    expect(checkRecord('deposits', { ...deposit, dest: 'lightning' }).map((p) => [p.field, p.code])).toEqual([['dest', 'unknown_enum']]);
    const bill = { billId: '7', coin: 'USDT', groupType: 'fee', businessType: 'trade_fee', size: '-0.1', fees: '0', cTime: '1700000000000' };
    expect(checkRecord('spotBills', bill)).toEqual([{ field: 'balance', code: 'missing', message: 'required field balance is missing' }]);
    expect(checkRecord('spotBills', { ...bill, balance: '99.9' })).toEqual([]);
  });
});
