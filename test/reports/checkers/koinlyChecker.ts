import { addTo, emptyView, eventOf, refIn, undocumented, type ToolView } from './toolView.js';

// Koinly's rules, each as its help page states it (docs/ledger.md lists the pages):
// [K1] "What are tags", https://support.koinly.io/en/articles/9490023-what-are-tags
//   "Without any tags, deposits are considered acquisitions of an asset (equivalent to "bought at
//   market price")"; "Without any tags, withdrawals are considered disposals of assets (equivalent
//   to "sold at market price")"; "Cashback tags Static: Fee refund ... These tags do not change the
//   behavior of the transaction (it remains an acquisition)"; "Loan tags Loan, Margin loan These
//   tags do not change the behavior of the transaction (it remains an acquisition)"; "PNL tag
//   Realized PNL The worth (market value) of deposits with this tag will increase your other
//   gains"; "Expense tags Cost, Tax, Margin fee, Loan fee "Send" transactions tagged with an expense
//   tag remain a disposal".
// [K2]/[K3] Futures and perpetuals (PNL transactions), support.koinly.io/en/articles/9490027 and
//   intercom.help/koinly/en/articles/9490027: "use the realized gain tag" in a CSV; tags Realized
//   P&L, Futures Fee, Funding Fee are other gains (a withdrawal so tagged: a loss).
// [K4] Crypto loans, https://support.koinly.io/en/articles/9490026-crypto-loans-repayments-and-collateral: Loan repayment.
// [K5] What are labels, https://help.koinly.io/en/articles/3663453-what-are-labels: "The Gift/Lost
//   labels are special and will result in the withdrawal not generating any gains".
// A row with Sent and Received is a trade ([K7] universal template); a Fee Amount is disposed of as a fee.
// [K1] "Income tags ... Salary, Income, Lending interest ... Airdrop, Fork, Mining, Reward ... The worth
// (market value) of deposits with those tags will increase your income"; [K5]
// (https://help.koinly.io/en/articles/3663453-what-are-labels) "Deposits can be tagged as Airdrop,
// Mining, Staking Other Income, Loan Interest. These deposits will appear under the Income section".
const incomeTags = new Set(['income', 'salary', 'lending interest', 'airdrop', 'fork', 'mining', 'reward', 'staking', 'other income', 'loan interest']);
const acquisitionTags = new Set(['', 'fee refund', 'cashback', 'loan', 'margin loan']);
const pnlTags = new Set(['realized gain', 'futures fee', 'funding fee']);
const expenseTags = new Set(['cost', 'tax', 'margin fee', 'loan fee']);
const disposalTags = new Set(['', 'loan repayment']);
const noGainTags = new Set(['gift', 'lost', 'donation']);

/**
 * Reads koinly.csv rows back the way Koinly would.
 *
 * @example
 * const view = koinlyView(parse(text, { columns: true }));
 */
export function koinlyView(rows: Record<string, string>[]): ToolView {
  const v = emptyView();
  for (const r of rows) {
    const ref = refIn(r.Description);
    const tag = (r.Label ?? '').toLowerCase();
    const sent = eventOf(ref, r['Sent Currency'], r['Sent Amount']);
    const received = eventOf(ref, r['Received Currency'], r['Received Amount']);
    const fee = eventOf(ref, r['Fee Currency'], r['Fee Amount']);
    if (sent && received) {
      if (tag !== '') throw undocumented('Koinly', 'Label on a trade', tag, ref);
      v.disposals.push(sent);
      v.acquisitions.push(received);
      v.trades.push(ref);
    } else if (received) {
      if (incomeTags.has(tag)) v.income.push(received);
      else if (pnlTags.has(tag)) v.otherGains.push(received);
      else if (acquisitionTags.has(tag)) v.acquisitions.push(received);
      else throw undocumented('Koinly', 'Label on a deposit', tag, ref);
    } else if (sent) {
      if (pnlTags.has(tag)) v.otherGains.push({ ...sent, amount: sent.amount.neg() });
      else if (expenseTags.has(tag) || disposalTags.has(tag)) v.disposals.push(sent);
      else if (noGainTags.has(tag)) v.nonTaxable.push(sent);
      else throw undocumented('Koinly', 'Label on a withdrawal', tag, ref);
    }
    // A standalone fee row (our Description starts with the ledger kind) is a fee the tool sees.
    if (/^fee /.test(r.Description ?? '')) {
      if (sent) v.fees.push(sent);
      if (received) v.fees.push({ ...received, amount: received.amount.neg() });
    }
    if (fee) { v.disposals.push(fee); v.fees.push(fee); }
    if (received) addTo(v.balances, received.coin, received.amount);
    if (sent) addTo(v.balances, sent.coin, sent.amount.neg());
    if (fee) addTo(v.balances, fee.coin, fee.amount.neg());
  }
  return v;
}
