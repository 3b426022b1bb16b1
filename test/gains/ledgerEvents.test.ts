import { describe, expect, it } from 'vitest';
import { absOf, ledgerEvents } from '../../src/gains/ledgerEvents.js';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import type { ValuedRow } from '../../src/gains/ledgerEvents.js';
import { OwnTransfers } from '../../src/gains/ownTransfers.js';

const row = (over: Partial<ValuedRow>): ValuedRow => ({
  account_uid: '1001', wallet: 'spot', coin: 'BTC', ms: Date.parse('2025-03-01T10:00:00Z'), day: '2025-03-01', amount: '0', kind: 'trade_buy',
  source: 'spot_fills', source_id: 't1', leg: 'base', counterparty: null, order_id: null, value: null, label: null, ...over,
});
const view = (events: ReturnType<typeof ledgerEvents>['events']) => events.map((e) => [
  e.type, e.asset, e.quantity.toFixed(), e.type === 'acquire' ? e.cost.toFixed() : e.type === 'dispose' ? e.proceeds.toFixed() : e.toPool, e.pool,
]);

describe('ledger rows to gains events', () => {
  it('a crypto buy: the fee paid in the bought coin goes into its cost and is a disposal of that coin', () => {
    const out = ledgerEvents([
      row({ coin: 'BTC', amount: '0.1', value: '3000', leg: 'base' }),
      row({ coin: 'USDT', amount: '-3000', kind: 'trade_sell', value: '-2990', leg: 'quote' }),
      row({ coin: 'BTC', amount: '-0.0001', kind: 'fee', value: '-3', leg: 'fee:0' }),
    ], 'USD');
    expect(view(out.events)).toEqual([
      ['acquire', 'BTC', '0.1', '3003', '1001:spot'],
      ['dispose', 'USDT', '3000', '2990', '1001:spot'],
      ['dispose', 'BTC', '0.0001', '3', '1001:spot'],
    ]);
  });

  it('a sale for the fiat itself: the fee comes off the proceeds; the fiat is no asset', () => {
    const out = ledgerEvents([
      row({ coin: 'ETH', amount: '-1', kind: 'trade_sell', value: '-700', leg: 'sent', source: 'imported_transactions' }),
      row({ coin: 'GBP', amount: '700', kind: 'trade_buy', value: '700', leg: 'received', source: 'imported_transactions' }),
      row({ coin: 'GBP', amount: '-5', kind: 'fee', value: '-5', leg: 'fee', source: 'imported_transactions' }),
    ], 'GBP');
    expect(view(out.events)).toEqual([['dispose', 'ETH', '1', '695', '1001:spot']]);
  });

  it('an own-account transfer is a move between pools, never a disposal', () => {
    const out = ledgerEvents([
      row({ kind: 'transfer_out', amount: '-2', source: 'transfers', leg: 'from', wallet: 'spot' }),
      row({ kind: 'transfer_in', amount: '2', source: 'transfers', leg: 'to', account_uid: '2002', wallet: 'spot' }),
    ], 'USD');
    expect(view(out.events)).toEqual([['move', 'BTC', '2', '2002:spot', '1001:spot']]);
    expect(out.problems).toEqual([]);
  });

  it('a deposit from outside takes its market value and is flagged; a withdrawal is a move out, flagged', () => {
    const dep = ledgerEvents([row({ kind: 'deposit', amount: '1', value: '50000', source: 'deposits', leg: 'amount' })], 'USD');
    expect(view(dep.events)).toEqual([['acquire', 'BTC', '1', '50000', '1001:spot']]);
    expect(dep.problems.map((p) => p.problem)).toEqual(['deposit_market_value']);
    const wd = ledgerEvents([row({ kind: 'withdrawal', amount: '-1', source: 'withdrawals', leg: 'amount', counterparty: 'bc1q' })], 'USD');
    expect(view(wd.events)).toEqual([['move', 'BTC', '1', 'external:bc1q', '1001:spot']]);
    expect(wd.problems.map((p) => p.problem)).toEqual(['withdrawal_not_disposal']);
  });

  it('futures PnL, funding, interest, rebates, compensation and confiscation are income rows, valued, signed', () => {
    const kinds: [string, string, string][] = [
      ['realized_pnl', '12', '12'], ['funding_fee', '-1', '-1'], ['interest', '-0.5', '-0.5'], ['compensate', '3', '3'], ['confiscated', '-2', '-2'],
    ];
    for (const [kind, amount, value] of kinds) {
      const out = ledgerEvents([row({ coin: 'USDT', kind, amount, value, source: 'futures_bills', source_id: kind, leg: 'amount' })], 'USD');
      expect(out.income.map((i) => [i.quantity.toFixed(), i.value?.toFixed()])).toEqual([[amount, value]]);
      expect(out.events[0]!.type).toBe(Number(amount) > 0 ? 'acquire' : 'dispose');
    }
    const rebate = ledgerEvents([row({ coin: 'USDT', kind: 'fee', amount: '0.2', value: '0.2', leg: 'fee:0' })], 'USD');
    expect(rebate.income.map((i) => i.category)).toEqual(['fee_rebate']);
  });

  it('an unpriced fee takes the unit price of its trade leg in the same coin; with none it is flagged and valued 0', () => {
    const out = ledgerEvents([
      row({ coin: 'BTC', amount: '-0.05', kind: 'trade_sell', value: '-600', leg: 'sent', source: 'imported_transactions' }),
      row({ coin: 'ETH', amount: '1', kind: 'trade_buy', value: '600', leg: 'received', source: 'imported_transactions' }),
      row({ coin: 'BTC', amount: '-0.001', kind: 'fee', value: null, leg: 'fee', source: 'imported_transactions' }),
    ], 'GBP');
    expect(view(out.events)).toEqual([
      ['acquire', 'ETH', '1', '612', '1001:spot'],
      ['dispose', 'BTC', '0.05', '600', '1001:spot'],
      ['dispose', 'BTC', '0.001', '12', '1001:spot'],
    ]);
    const lone = ledgerEvents([row({ coin: 'XYZ', amount: '-1', kind: 'fee', value: null, source: 'withdrawals', leg: 'fee' })], 'USD');
    expect(lone.problems.map((p) => p.problem)).toEqual(['unpriced']);
  });
});

describe('unpriced trade legs', () => {
  it('an imported buy without Net Worth takes the value of its fiat side', () => {
    const out = ledgerEvents([
      row({ coin: 'USD', amount: '-1000', kind: 'trade_sell', value: '-1000', leg: 'sent', source: 'imported_transactions' }),
      row({ coin: 'BTC', amount: '0.1', kind: 'trade_buy', value: null, leg: 'received', source: 'imported_transactions' }),
      row({ coin: 'USD', amount: '-2', kind: 'fee', value: '-2', leg: 'fee', source: 'imported_transactions' }),
    ], 'USD');
    expect(view(out.events)).toEqual([['acquire', 'BTC', '0.1', '1002', '1001:spot']]);
    expect(out.problems).toEqual([]);
  });
});

describe('own-account movements between imported wallets and accounts', () => {
  const wd = (over: Partial<ValuedRow>) => row({ kind: 'withdrawal', amount: '-1', source: 'imported_transactions', leg: 'sent', account_uid: 'ledger-x', wallet: 'ledger-x', counterparty: null, ...over });
  const dep = (over: Partial<ValuedRow>) => row({ kind: 'deposit', amount: '0.999', value: '50000', source: 'imported_transactions', leg: 'received', account_uid: 'ledger-y', wallet: 'ledger-y', ...over });

  it('a deposit with the withdrawal\'s transaction hash moves the lots on: no acquisition, no flag', () => {
    const t = new OwnTransfers();
    const out = ledgerEvents([wd({ order_id: '0xabc' })], 'USD', t);
    expect(view(out.events)).toEqual([['move', 'BTC', '1', 'external:unknown', 'ledger-x']]);
    const back = ledgerEvents([dep({ order_id: '0xabc', ms: Date.parse('2025-03-05T10:00:00Z'), day: '2025-03-05' })], 'USD', t);
    expect(view(back.events)).toEqual([['move', 'BTC', '0.999', 'ledger-y', 'external:unknown']]);
    expect(back.problems).toEqual([]);
  });

  it('without a hash: the same coin and amount (less up to 5% fee) within a day matches; later or other amounts do not', () => {
    const t = new OwnTransfers();
    ledgerEvents([wd({})], 'USD', t);
    const near = ledgerEvents([dep({ ms: Date.parse('2025-03-01T20:00:00Z') })], 'USD', t);
    expect(near.events[0]!.type).toBe('move');
    ledgerEvents([wd({})], 'USD', t);
    const late = ledgerEvents([dep({ ms: Date.parse('2025-03-03T10:00:00Z'), day: '2025-03-03' })], 'USD', t);
    expect(view(late.events)).toEqual([['acquire', 'BTC', '0.999', '50000', 'ledger-y']]);
    expect(late.problems.map((p) => p.problem)).toEqual(['deposit_market_value']);
  });

  // Issue 21: every label and shape reports/koinly.sql writes reads back as the ledger kind it came from.
  describe('a koinly.csv of ours, imported', () => {
    const imp = (over: Partial<ValuedRow>) => row({ account_uid: 'rt', wallet: 'rt', source: 'imported_transactions', source_id: 'sha:2', leg: 'sent', ...over });
    it('futures fee / funding fee: out a disposal and an expense, in income (Koinly PNL tags), never a move', () => {
      const fee = ledgerEvents([imp({ kind: 'withdrawal', coin: 'USDT', amount: '-2', value: '-2', label: 'futures fee' })], 'USD');
      expect(view(fee.events)).toEqual([['dispose', 'USDT', '2', '2', 'rt']]);
      expect(fee.income.map((i) => [i.category, i.value?.toFixed()])).toEqual([['futures fee', '-2']]);
      const funding = ledgerEvents([imp({ kind: 'deposit', coin: 'BTC', amount: '0.01', value: '600', label: 'funding fee', leg: 'received' })], 'USD');
      expect(view(funding.events)).toEqual([['acquire', 'BTC', '0.01', '600', 'rt']]);
      expect(funding.income.map((i) => i.category)).toEqual(['funding fee']);
    });
    it('margin loan / loan repayment: loan principal, as borrow and repay', () => {
      for (const [kind, label, amount] of [['deposit', 'margin loan', '100'], ['withdrawal', 'loan repayment', '-60']] as const) {
        const out = ledgerEvents([imp({ kind, coin: 'USDT', amount, value: amount, label })], 'USD');
        expect(out.events).toEqual([]);
        expect(out.problems.map((p) => p.problem)).toEqual(['loan_not_disposal']);
      }
    });
    it('fee refund: income and an acquisition, as a rebate', () => {
      const out = ledgerEvents([imp({ kind: 'deposit', coin: 'BGB', amount: '1', value: '1.2', label: 'fee refund', leg: 'received' })], 'USD');
      expect(view(out.events)).toEqual([['acquire', 'BGB', '1', '1.2', 'rt']]);
      expect(out.income.map((i) => i.category)).toEqual(['fee refund']);
    });
    it('an untagged margin sell leg (Description trade_sell <x>_margin ...) is a sale, not a move to an own wallet', () => {
      const out = ledgerEvents([imp({ kind: 'withdrawal', coin: 'ETH', amount: '-1', value: '-3000', label: '', description: 'trade_sell isolated_margin 1001 margin_records:9 ETHUSDT' })], 'USD');
      expect(view(out.events)).toEqual([['dispose', 'ETH', '1', '3000', 'rt']]);
      const plain = ledgerEvents([imp({ kind: 'withdrawal', coin: 'ETH', amount: '-1', value: '-3000', label: '', description: 'withdrawal spot 1001 withdrawals:w1' })], 'USD');
      expect(plain.events.map((e) => e.type)).toEqual(['move']);
    });
  });
});

describe('absOf: a magnitude read once', () => {
  // Held equal to what it replaces, digit array, exponent and sign (decimal.js internals), on
  // PostgreSQL's numeric text and on spellings it never writes; and refused where that refuses.
  const parts = (x: GainsDecimal) => { const i = x as unknown as { s: number; e: number; d: number[] | null }; return { s: i.s, e: i.e, d: i.d }; };
  const texts = ['0', '-0', '0.000', '-0.000', '1', '-1', '12.50', '-12.50', '-0.00000001', '0.1234567', '-1234567.1234567', '12345678901234567890.123456789',
    '-99999999999999999999999999999999999999999999999999999999999999999999', '1e-7', '-1E+5', '+5', '.5', '-.5', '5.', 'Infinity', '-Infinity', 'NaN', '-NaN'];
  for (let k = 0; k < 200; k++) texts.push(`${k % 3 === 0 ? '-' : ''}${(k * 7919) % 100000}.${String((k * 104729) % 1e8).padStart(8, '0')}`);
  it('gives what new GainsDecimal(text).abs() gives', () => {
    for (const t of texts) expect(parts(absOf(t)), t).toEqual(parts(new GainsDecimal(t).abs()));
  });
  it('refuses the text that refuses, a second sign included', () => {
    for (const t of ['--1', '-+1', '+-1', '-', '', 'abc', '1..2', '- 1']) {
      expect(() => new GainsDecimal(t).abs(), t).toThrow();
      expect(() => absOf(t), t).toThrow();
    }
  });
});
