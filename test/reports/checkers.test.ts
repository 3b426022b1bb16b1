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
