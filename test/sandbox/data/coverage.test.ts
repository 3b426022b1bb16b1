import { parse, type LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { marginTaxTypes } from '../../../src/api/records/margin.js';
import { accountTypePairs } from '../../../src/sandbox/data/generators/transferGenerator.js';
import { tradeSides } from '../../../src/sandbox/data/generators/futuresShape.js';
import { recordsOf, tinyWorld, valuesOf } from './tinyWorld.js';

// Coverage must hold in the smallest preset, so a tiny world is the test.
const world = tinyWorld(1);
const main = world.accounts[0]!;

type Json = Record<string, unknown>;
const text = (v: unknown): string => (v as LosslessNumber).toString();

/** Every spot order feeDetail, parsed losslessly (numbers keep their wire text). */
const fees = recordsOf(world, 'spotOrders').map((o) => String(o['feeDetail']));
const parsed = fees.flatMap((f) => {
  if (f === '') return [];
  try { return [parse(f) as Json]; } catch { return []; }
});

describe('coverage of every value the spec lists (tiny world)', () => {
  it('spot orders: every status, cancel reason, enterPointSource and orderSource', () => {
    expect(valuesOf(world, 'spotOrders', 'status')).toEqual(new Set(['live', 'partially_filled', 'filled', 'cancelled']));
    expect(valuesOf(world, 'spotOrders', 'cancelReason')).toEqual(new Set(['', 'normal_cancel', 'stp_cancel']));
    expect(valuesOf(world, 'spotOrders', 'enterPointSource')).toEqual(new Set(['WEB', 'IOS', 'ANDROID', 'API', 'SYS']));
    expect(valuesOf(world, 'spotOrders', 'orderSource').size).toBe(6);
  });

  it('spot orders: feeDetail is "" without fills and a JSON string in the newFees and legacy forms', () => {
    const orders = recordsOf(world, 'spotOrders');
    for (const o of orders) if (o['baseVolume'] === '0' && o['userId'] !== undefined) expect(o['feeDetail']).toBe('');
    const newFees = parsed.map((p) => p['newFees'] as Json | undefined).filter((n): n is Json => n !== undefined);
    expect(newFees.some((n) => text(n['d']) !== '0' && text(n['r']) === '0')).toBe(true); // platform coin paid all
    expect(newFees.some((n) => text(n['c']) !== '0')).toBe(true); // coupon
    expect(newFees.some((n) => text(n['d']) !== '0' && text(n['r']) !== '0')).toBe(true); // insufficient platform coin
    expect(newFees.some((n) => text(n['t']).startsWith('-'))).toBe(true);
    expect(newFees.some((n) => !text(n['t']).startsWith('-') && text(n['t']) !== '0')).toBe(true); // maker rebate
    expect(newFees.some((n) => !text(n['d']).startsWith('-') && text(n['d']) !== '0')).toBe(true); // positive platform fee
    const legacy = parsed.filter((p) => p['newFees'] === undefined);
    const entries = legacy.flatMap((p) => Object.entries(p)) as [string, Json][];
    expect(entries.some(([k, v]) => k === v['feeCoinCode'] && v['deduction'] === false)).toBe(true);
    expect(entries.some(([k, v]) => k === 'BGB' && v['feeCoinCode'] === 'BGB' && v['deduction'] === true)).toBe(true);
    expect(entries.some(([k, v]) => k !== v['feeCoinCode'])).toBe(true);
    expect(entries.some(([, v]) => v['newFees'] !== undefined)).toBe(true);
    for (const [, v] of entries) expect(Object.keys(v)).toEqual(expect.arrayContaining(['deduction', 'feeCoinCode', 'totalDeductionFee', 'totalFee']));
  });

  it('spot orders: feeDetail amounts are JSON numbers, some in exponent notation', () => {
    expect(fees.some((f) => /"t":-?\d/.test(f))).toBe(true);
    expect(fees.some((f) => /-\d(\.\d+)?E-\d+/.test(f))).toBe(true);
  });

  it('spot fills carry an object feeDetail, futures fills an array', () => {
    const spot = recordsOf(world, 'spotFills').map((f) => f['feeDetail'] as Json);
    expect(new Set(spot.map((f) => f['deduction']))).toEqual(new Set(['yes', 'no']));
    expect(spot.some((f) => String(f['totalFee']).startsWith('-'))).toBe(true);
    expect(spot.some((f) => f['feeCoin'] === 'BGB' && !String(f['totalFee']).startsWith('-'))).toBe(true);
    const futures = recordsOf(world, 'futuresFills').map((f) => f['feeDetail']);
    for (const f of futures) expect(Array.isArray(f)).toBe(true);
  });

  it('margin records: every marginTaxType, in both partitions', () => {
    expect(valuesOf(world, 'marginRecords', 'marginTaxType')).toEqual(new Set(marginTaxTypes));
    for (const p of ['crossed', 'isolated']) expect(world.series(main.uid, 'marginRecords', p).size).toBeGreaterThan(0);
  });

  it('cross-margin orders: every status, side and loanType, with the spec spellings', () => {
    expect(valuesOf(world, 'crossMarginOrders', 'status')).toEqual(new Set(['live', 'partially_fill', 'filled', 'cancelled', 'reject']));
    expect(valuesOf(world, 'crossMarginOrders', 'side')).toEqual(new Set(['sell', 'buy', 'liquidation-buy', 'liquidation-sell', 'systemRepay-buy', 'systemRepay-selll']));
    expect(valuesOf(world, 'crossMarginOrders', 'loanType')).toEqual(new Set(['normal', 'autoLoan', 'autoRepay', 'autoLoanAndRepay']));
  });

  it('futures orders: every product type (demo ones on the demo account), modes, tradeSide, status and orderSource', () => {
    const demo = world.accounts.find((a) => a.demo)!;
    for (const pt of ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']) expect(world.series(main.uid, 'futuresOrders', pt).size).toBeGreaterThan(0);
    for (const pt of ['SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES']) {
      const orders = [...world.series(demo.uid, 'futuresOrders', pt).all()];
      expect(orders.length).toBeGreaterThan(0);
      for (const o of orders) expect(o.symbol.startsWith('S') && o.marginCoin.startsWith('S')).toBe(true);
    }
    expect(valuesOf(world, 'futuresOrders', 'marginMode')).toEqual(new Set(['isolated', 'crossed']));
    expect(valuesOf(world, 'futuresOrders', 'posMode')).toEqual(new Set(['one_way_mode', 'hedge_mode']));
    expect(valuesOf(world, 'futuresOrders', 'posSide')).toEqual(new Set(['long', 'short', 'net']));
    expect(valuesOf(world, 'futuresOrders', 'tradeSide')).toEqual(new Set(tradeSides));
    expect(valuesOf(world, 'futuresOrders', 'status')).toEqual(new Set(['filled', 'canceled']));
    expect(valuesOf(world, 'futuresOrders', 'orderSource').size).toBe(18);
  });

  it('futures bills: funding fees, realized PnL on closes, open fees', () => {
    const types = valuesOf(world, 'futuresBills', 'businessType');
    for (const t of ['contract_settle_fee', 'close_long', 'close_short', 'open_long', 'open_short']) expect(types).toContain(t);
    const closes = recordsOf(world, 'futuresBills').filter((b) => String(b['businessType']).startsWith('close_'));
    expect(closes.some((b) => String(b['amount']).startsWith('-')) && closes.some((b) => !String(b['amount']).startsWith('-'))).toBe(true);
  });

  it('plan orders: every planType; callbackRatio only and price never on track_plan', () => {
    const plans = recordsOf(world, 'planOrders');
    expect(new Set(plans.map((p) => p['planType']))).toEqual(new Set(['normal_plan', 'track_plan', 'profit_loss']));
    for (const p of plans) {
      expect('callbackRatio' in p).toBe(p['planType'] === 'track_plan');
      expect('price' in p).toBe(p['planType'] !== 'track_plan');
    }
    expect(new Set(plans.map((p) => p['triggerType']))).toEqual(new Set(['fill_price', 'mark_price', 'index_price']));
  });

  it('deposits, withdrawals and transfers: every status, dest spelling and account-type pair', () => {
    expect(valuesOf(world, 'deposits', 'status')).toEqual(new Set(['pending', 'fail', 'success']));
    expect(valuesOf(world, 'deposits', 'dest')).toEqual(new Set(['on_chain', 'internal', 'internal_transfer', 'lightning']));
    expect(valuesOf(world, 'withdrawals', 'status')).toEqual(new Set(['pending', 'fail', 'success']));
    expect(valuesOf(world, 'withdrawals', 'dest')).toEqual(new Set(['on_chain', 'internal_transfer']));
    const transfers = recordsOf(world, 'transfers');
    expect(new Set(transfers.map((t) => t['status']))).toEqual(new Set(['Successful', 'Failed', 'Processing']));
    const pairs = new Set(transfers.map((t) => `${String(t['fromType'])}>${String(t['toType'])}`));
    for (const [from, to] of accountTypePairs) expect(pairs).toContain(`${from}>${to}`);
    const sub = main.subUids[0]!;
    expect(transfers.some((t) => t['fromUserId'] === main.uid && main.subUids.includes(String(t['toUserId'])))).toBe(true);
    const subTransfers = [...world.series(sub, 'transfers', 'all').all()];
    expect(subTransfers.some((t) => t.toUserId === main.uid)).toBe(true);
    for (const t of subTransfers) expect(t.fromUserId).toBe(sub); // stored under the initiator
  });

  it('tax records exist for spot and futures', () => {
    expect(recordsOf(world, 'taxSpotRecords').length).toBeGreaterThan(0);
    expect(recordsOf(world, 'taxFutureRecords').length).toBeGreaterThan(0);
  });

  it('holds exactly the documented bad records, all in the main account', () => {
    const malformed = [...world.series(main.uid, 'spotOrders', 'all').all()].filter((o) => {
      if (o.feeDetail === '') return false;
      try { parse(o.feeDetail); return false; } catch { return true; }
    });
    expect(malformed).toHaveLength(1);
    expect(recordsOf(world, 'deposits').filter((d) => d['dest'] === 'lightning')).toHaveLength(1);
    const bills = recordsOf(world, 'spotBills');
    expect(bills.filter((b) => !('balance' in b))).toHaveLength(1);
    expect([...world.series(main.uid, 'spotBills', 'all').all()].filter((b) => !('balance' in b))).toHaveLength(1);
  });
});
