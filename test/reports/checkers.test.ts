import { describe, expect, it } from 'vitest';
import { koinlyView } from './checkers/koinlyChecker.js';
import { coinTrackerView } from './checkers/coinTrackerChecker.js';
import { coinTrackingView } from './checkers/coinTrackingChecker.js';
import { ctcView } from './checkers/ctcChecker.js';
import { sumsOf } from './checkers/toolView.js';

// The checkers themselves, on the tools' own documented examples: if an interpreter misread a
// rule, the sandbox tests built on it would prove nothing.

const amounts = (events: { coin: string; amount: { toFixed(): string } }[]) => events.map((e) => `${e.amount.toFixed()} ${e.coin}`);

describe('koinly checker', () => {
  const row = (over: Record<string, string>) => ({ Date: '2025-01-01 00:00 UTC', 'Sent Amount': '', 'Sent Currency': '', 'Received Amount': '',
    'Received Currency': '', 'Fee Amount': '', 'Fee Currency': '', Label: '', Description: 'deposit spot A deposits:d1', TxHash: '', ...over });

  it('support.koinly.io 9490027: a profit is a deposit tagged realized gain, a loss a withdrawal tagged realized gain', () => {
    const v = koinlyView([
      row({ 'Received Amount': '200', 'Received Currency': 'USDT', Label: 'realized gain', Description: 'realized_pnl usdt_futures A futures_bills:b1' }),
      row({ 'Sent Amount': '300', 'Sent Currency': 'USDT', Label: 'realized gain', Description: 'realized_pnl usdt_futures A futures_bills:b2' }),
    ]);
    expect(amounts(v.otherGains)).toEqual(['200 USDT', '-300 USDT']);
    expect(v.income).toEqual([]);
    expect(v.disposals).toEqual([]);
  });

  it('support.koinly.io 9490023: an untagged deposit is an acquisition, an untagged withdrawal a disposal, income tags income', () => {
    const v = koinlyView([
      row({ 'Received Amount': '20', 'Received Currency': 'BTC', Label: 'mining' }),
      row({ 'Received Amount': '1', 'Received Currency': 'ETH' }),
      row({ 'Sent Amount': '20', 'Sent Currency': 'BTC', Description: 'withdrawal spot A withdrawals:w1' }),
    ]);
    expect(amounts(v.income)).toEqual(['20 BTC']);
    expect(amounts(v.acquisitions)).toEqual(['1 ETH']);
    expect(amounts(v.disposals)).toEqual(['20 BTC']);
    expect(sumsOf(v.balances)).toEqual({ ETH: '1' });
  });

  it('refuses a tag Koinly does not document', () => {
    expect(() => koinlyView([row({ 'Received Amount': '1', 'Received Currency': 'BTC', Label: 'margin repayment' })])).toThrow(/not in the tool's documented vocabulary/);
  });
});

describe('cointracker checker', () => {
  const row = (over: Record<string, string>) => ({ Date: '01/01/2025 00:00:00', 'Received Quantity': '', 'Received Currency': '', 'Sent Quantity': '',
    'Sent Currency': '', 'Fee Amount': '', 'Fee Currency': '', Tag: '', ...over });

  it('support.cointracker.io 15888597060881: an untagged Receive is Other Income, an untagged Send a disposal, margin gain a futures gain', () => {
    const v = coinTrackerView([
      row({ 'Received Quantity': '1', 'Received Currency': 'BTC' }),
      row({ 'Sent Quantity': '2', 'Sent Currency': 'ETH' }),
      row({ 'Received Quantity': '5', 'Received Currency': 'USDT', Tag: 'margin gain' }),
    ]);
    expect(amounts(v.income)).toEqual(['1 BTC']);
    expect(amounts(v.disposals)).toEqual(['2 ETH']);
    expect(amounts(v.otherGains)).toEqual(['5 USDT']);
  });
});

describe('cointracking checker', () => {
  it('cointracking legacy types: Deposit and Withdrawal are non-taxable transfers, per Exchange', () => {
    const base = { 'Buy Amount': '', 'Buy Currency': '', 'Sell Amount': '', 'Sell Currency': '', Fee: '', 'Fee Currency': '', 'Trade-Group': '', Date: '2025-01-01 00:00:00' };
    const v = coinTrackingView([
      { ...base, Type: 'Withdrawal', 'Sell Amount': '1', 'Sell Currency': 'BTC', Exchange: 'A spot', Comment: 'transfer_out transfers:x1' },
      { ...base, Type: 'Deposit', 'Buy Amount': '1', 'Buy Currency': 'BTC', Exchange: 'B spot', Comment: 'transfer_in transfers:x1' },
    ]);
    expect(v.disposals).toEqual([]);
    expect(v.income).toEqual([]);
    expect(sumsOf(v.balances)).toEqual({});
    expect(sumsOf(v.walletBalances)).toEqual({ 'A spot BTC': '-1', 'B spot BTC': '1' });
  });

  // https://cointracking.freshdesk.com/en/support/solutions/articles/29000007202-entering-fees
  const base = { 'Buy Amount': '', 'Buy Currency': '', 'Sell Amount': '', 'Sell Currency': '', Fee: '', 'Fee Currency': '', Exchange: 'A spot', 'Trade-Group': '', Date: '2025-01-01 00:00:00' };
  it('29000007202: "Buy = 0.99 BTC, Sell = 500 USD, Fee = 0.01 BTC": the amounts carry the fee, the Fee cell is informational', () => {
    const v = coinTrackingView([{ ...base, Type: 'Trade', 'Buy Amount': '0.99', 'Buy Currency': 'BTC', 'Sell Amount': '500', 'Sell Currency': 'USD',
      Fee: '0.01', 'Fee Currency': 'BTC', Comment: 'trade spot_fills:f1' }]);
    expect(sumsOf(v.balances)).toEqual({ BTC: '0.99', USD: '-500' });
    expect(amounts(v.fees)).toEqual(['0.01 BTC']);
    expect(v.trades).toEqual(['spot_fills:f1']);
  });
  it('29000007202: "Withdrawal of 1.001 BTC from Exchange = Wallet A, Fee = 0.001 BTC" removes 1.001 BTC', () => {
    const v = coinTrackingView([{ ...base, Type: 'Withdrawal', 'Sell Amount': '1.001', 'Sell Currency': 'BTC', Fee: '0.001', 'Fee Currency': 'BTC', Comment: 'withdrawal withdrawals:w1' }]);
    expect(sumsOf(v.walletBalances)).toEqual({ 'A spot BTC': '-1.001' });
    expect(v.disposals).toEqual([]);
  });
  it('29000007202: a fee in a third currency "is not deducted from the total balance"; an Other Fee row is', () => {
    const trade = { ...base, Type: 'Trade', 'Buy Amount': '1', 'Buy Currency': 'BTC', 'Sell Amount': '15', 'Sell Currency': 'ETH', Comment: 'trade spot_fills:f2' };
    expect(sumsOf(coinTrackingView([{ ...trade, Fee: '1', 'Fee Currency': 'BNB' }]).balances)).toEqual({ BTC: '1', ETH: '-15' });
    const v = coinTrackingView([trade, { ...base, Type: 'Other Fee', 'Sell Amount': '1', 'Sell Currency': 'BNB', Comment: 'fee trade spot_fills:f2' }]);
    expect(sumsOf(v.balances)).toEqual({ BTC: '1', ETH: '-15', BNB: '-1' });
    expect(amounts(v.fees)).toEqual(['1 BNB']);
  });
  it('29000047245: Receive Loan and Repay Loan are loan principal, neither income nor a disposal', () => {
    const v = coinTrackingView([
      { ...base, Type: 'Receive Loan', 'Buy Amount': '100', 'Buy Currency': 'USDT', Comment: 'borrow margin_records:m1' },
      { ...base, Type: 'Repay Loan', 'Sell Amount': '60', 'Sell Currency': 'USDT', Comment: 'repay margin_records:m2' },
    ]);
    expect([...v.income, ...v.disposals, ...v.acquisitions]).toEqual([]);
    expect(amounts(v.nonTaxable)).toEqual(['100 USDT', '60 USDT']);
    expect(sumsOf(v.balances)).toEqual({ USDT: '40' });
  });
});

describe('ctc checker', () => {
  it('help.cryptotaxcalculator.io 5777675: buying ETH with USD is a buy with Base ETH and Quote USD', () => {
    const v = ctcView([{ 'Timestamp (UTC)': '2025-01-01 00:00:00', Type: 'buy', 'Base Currency': 'ETH', 'Base Amount': '1', 'Quote Currency': 'USD',
      'Quote Amount': '3000', 'Fee Currency': 'USD', 'Fee Amount': '5', From: '', To: '', Blockchain: '', ID: 'spot_fills:f1', Description: 'trade spot A' }]);
    expect(v.trades).toEqual(['spot_fills:f1']);
    expect(amounts(v.acquisitions)).toEqual(['1 ETH']);
    expect(amounts(v.disposals)).toEqual(['3000 USD', '5 USD']);
    expect(sumsOf(v.balances)).toEqual({ ETH: '1', USD: '-3005' });
  });
});
