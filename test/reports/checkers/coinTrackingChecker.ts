import { addTo, emptyView, eventOf, refIn, undocumented, type ToolView } from './toolView.js';

// CoinTracking's rules, each as its help page states it (docs/ledger.md lists the pages):
//
// [T3] "Entering fees", https://cointracking.freshdesk.com/en/support/solutions/articles/29000007202-entering-fees
//   "The fee field is more an informational value for our system, so we can calculate the data for
//   our Fee page. Relevant for calculations are the entered values." -> a balance moves by Buy and
//   Sell only; the Fee column is a fee the Fee page shows, never a second deduction.
//   "Any fee that is paid in a third currency (i.e. a coin that is not part of either the sell or
//   the buy) is not deducted from the total balance." -> such a Fee cell moves no balance (the
//   balance check then shows the missing deduction) "... you need to create an additional
//   transaction as OTHER FEE for the fee."
// [T1] "Transaction Types", https://cointracking.freshdesk.com/en/support/solutions/articles/29000042783-transaction-types
//   "Trade: Exchange one asset for another"; "Deposit: Add an asset to a wallet or exchange";
//   "Withdrawal: Remove an asset from a wallet or exchange"; "Income: Earning or payment
//   received"; "Income (non taxable): Received airdrops or similar not counted as taxable"; "Lost:
//   Asset permanently lost"; "Other Fee: Transaction-related fee"; "Borrowing Fee: Fee for
//   borrowing assets"; "Expense (non taxable): Outgoing value that is not taxable".
// [T6] "Why cost per unit on gains page differs", https://cointracking.freshdesk.com/en/support/solutions/articles/29000029902-why-cost-per-unit-on-gains-page-differs-from-the-real-price-you-paid-
//   "Transfers (deposits and withdrawals) don't affect the pool" -> Deposit / Withdrawal are
//   non-taxable; "Buys, gifts, rewards, and income add to the pool. Sells, spends, and donations
//   deduct from it."
// [T4] "Loans and their repayments", https://cointracking.freshdesk.com/en/support/solutions/articles/29000047245-loans-and-their-repayments
//   "When you receive a loan from the platform, ensure to document this transaction as "Receive
//   Loan," ... If at any point you decide to repay the borrowed amount, you should select "Repay
//   Loan"" -> loan principal, neither acquisition nor disposal.
// [T2] "Expanded Transaction Types (legacy)", https://cointracking.freshdesk.com/en/support/solutions/articles/29000034379-expanded-transaction-types-legacy-
//   Derivatives / Futures Profit or Loss, Margin Profit or Loss: gains outside capital gains.
// Balances are kept per Exchange (our account and wallet) as well as per coin.
const gains = new Set(['Derivatives / Futures Profit', 'Margin Profit']);
const losses = new Set(['Derivatives / Futures Loss', 'Margin Loss']);
const fees = new Set(['Other Fee', 'Borrowing Fee']);
// [T1] "Income: Earning or payment received"; "Gift / Tip: Asset received as a gift or tip";
// "Reward / Bonus: Received reward or bonus"; "Staking: Staking rewards"; "Mining: Mining rewards";
// "Airdrop: Coins received via airdrop"; "Interest Income: Income from earned interest".
const incomeTypes = new Set(['Income', 'Gift / Tip', 'Reward / Bonus', 'Staking', 'Mining', 'Airdrop', 'Interest Income']);
// [T1] "Spend: Payment for goods or services" (a disposal, [T6] "Sells, spends, and donations
// deduct from it"); "Donation", "Gift: Sent as a gift", "Stolen / Hacked / Fraud", "Lost".
const goneTypes = new Set(['Donation', 'Gift', 'Stolen / Hacked / Fraud', 'Lost']);

/**
 * Reads cointracking.csv rows back the way CoinTracking would.
 *
 * @example
 * const view = coinTrackingView(parse(text, { columns: true }));
 */
export function coinTrackingView(rows: Record<string, string>[]): ToolView {
  const v = emptyView();
  for (const r of rows) {
    const ref = refIn(r.Comment);
    const type = r.Type ?? '';
    const bought = eventOf(ref, r['Buy Currency'], r['Buy Amount']);
    const sold = eventOf(ref, r['Sell Currency'], r['Sell Amount']);
    const fee = eventOf(ref, r['Fee Currency'], r.Fee);
    const need = (e: typeof bought, side: string) => {
      if (!e) throw new Error(`CoinTracking ${type} ${ref} needs its ${side} side`);
      return e;
    };
    if (type === 'Trade') {
      v.disposals.push(need(sold, 'Sell'));
      v.acquisitions.push(need(bought, 'Buy'));
      v.trades.push(ref);
    } else if (type === 'Deposit' || type === 'Withdrawal') {
      v.nonTaxable.push(need(type === 'Deposit' ? bought : sold, type === 'Deposit' ? 'Buy' : 'Sell'));
    } else if (type === 'Receive Loan' || type === 'Income (non taxable)' && !/^fee /.test(r.Comment ?? '')) {
      v.nonTaxable.push(need(bought, 'Buy'));
    } else if (type === 'Repay Loan' || type === 'Expense (non taxable)') {
      v.nonTaxable.push(need(sold, 'Sell'));
    } else if (incomeTypes.has(type)) {
      v.income.push(need(bought, 'Buy'));
    } else if (type === 'Spend') {
      v.disposals.push(need(sold, 'Sell'));
    } else if (type === 'Income (non taxable)') {
      // A refunded fee (our Comment starts with the ledger kind 'fee'): a negative fee.
      v.acquisitions.push(bought!);
      v.fees.push({ ...need(bought, 'Buy'), amount: bought!.amount.neg() });
    } else if (fees.has(type)) {
      v.disposals.push(need(sold, 'Sell'));
      if (/^fee /.test(r.Comment ?? '')) v.fees.push(sold!);
    } else if (gains.has(type)) {
      v.otherGains.push(need(bought, 'Buy'));
    } else if (losses.has(type)) {
      v.otherGains.push({ ...need(sold, 'Sell'), amount: sold!.amount.neg() });
    } else if (goneTypes.has(type)) {
      v.nonTaxable.push(need(sold, 'Sell'));
    } else {
      throw undocumented('CoinTracking', 'Type', type, ref);
    }
    // [T3]: the Fee cell is informational (the Fee page); the amounts already carry it.
    if (fee) v.fees.push(fee);
    const wallet = r.Exchange ?? '';
    for (const [e, sign] of [[bought, 1], [sold, -1]] as const) {
      if (!e) continue;
      addTo(v.balances, e.coin, e.amount.times(sign));
      addTo(v.walletBalances, `${wallet} ${e.coin}`, e.amount.times(sign));
    }
  }
  return v;
}
