import { addTo, emptyView, eventOf, undocumented, type ToolView } from './toolView.js';

// CoinTracker's rules, each as its help page states it (docs/ledger.md lists the pages):
// [C1] "What is a transaction type?", https://support.cointracker.io/hc/en-us/articles/15888597060881-What-is-a-transaction-type-
//   Received and Sent in one row: a trade; a Receive with no tag is taxed as Other Income; a Send
//   with no tag is a disposal ("No tag - capital gain calculation - CoinTracker assumes you made a
//   payment or in some way disposed your crypto", tags page 4413049710225).
// [C2] "Transaction category definitions", https://support.cointracker.io/hc/en-us/articles/4413049710225-Transaction-category-definitions
//   "Margin | You traded assets through a margin order (separate from a spot trading wallet). |
//   margin"; "Margin fee | You paid a fee to cover interest or rollover fees on a margin loan. |
//   margin fee"; "Margin gain | You had a gain associated with a margin trade. | margin gain";
//   "Margin loss | You had a loss associated with a margin trade. | margin loss"; "Margin rebate |
//   You received a rebate to adjust margin fees"; "Staking reward ... default tax treatment is
//   taxable | staking". Older tags page: "Lost / Stolen a transaction that cannot be recovered".
// [C3] CSV template: a row with only Fee Amount is a fee.
// The CSV has no description column, so a row's reference is its date, coin and amount.

/** The key CoinTracker rows and our own-account rows are matched by. */
export function coinTrackerKey(date: string, coin: string, amount: string): string {
  return `${date}|${coin}|${amount}`;
}

/**
 * Reads cointracker.csv rows back the way CoinTracker would.
 *
 * @example
 * const view = coinTrackerView(parse(text, { columns: true }));
 */
export function coinTrackerView(rows: Record<string, string>[]): ToolView {
  const v = emptyView();
  for (const r of rows) {
    const tag = r.Tag ?? '';
    const date = r.Date ?? '';
    const sent = eventOf('', r['Sent Currency'], r['Sent Quantity']);
    const received = eventOf('', r['Received Currency'], r['Received Quantity']);
    const fee = eventOf('', r['Fee Currency'], r['Fee Amount']);
    for (const e of [sent, received, fee]) if (e) e.ref = coinTrackerKey(date, e.coin, e.amount.toFixed());
    if (sent && received) {
      if (tag !== '' && tag !== 'margin') throw undocumented('CoinTracker', 'Tag on a trade', tag, date);
      v.disposals.push(sent);
      v.acquisitions.push(received);
      v.trades.push(`${sent.ref}>${received.ref}`);
    } else if (received) {
      if (tag === '') v.income.push(received);
      // [C2] "Staking reward ... default tax treatment is taxable | staking"; airdrop and mining
      // rewards are income as in the tags page (4413049710225 "Airdrop: a transaction that was
      // received in an airdrop"; "Mining reward").
      else if (tag === 'staking' || tag === 'airdrop' || tag === 'mining') v.income.push(received);
      else if (tag === 'margin gain') v.otherGains.push(received);
      else if (tag === 'margin' || tag === 'margin rebate') v.acquisitions.push(received);
      else throw undocumented('CoinTracker', 'Tag on a Receive', tag, date);
      if (tag === 'margin rebate') v.fees.push({ ...received, amount: received.amount.neg() });
    } else if (sent) {
      if (tag === '' || tag === 'margin') v.disposals.push(sent);
      else if (tag === 'margin fee') { v.disposals.push(sent); v.fees.push(sent); }
      else if (tag === 'margin loss') v.otherGains.push({ ...sent, amount: sent.amount.neg() });
      // [C2] tags page: "Gift ... no capital gain", "Donation - no capital gain calculation", "Lost / Stolen".
      else if (tag === 'lost' || tag === 'gift' || tag === 'donation') v.nonTaxable.push(sent);
      else throw undocumented('CoinTracker', 'Tag on a Send', tag, date);
    } else if (!fee) {
      throw new Error(`CoinTracker row ${date}: nothing received, sent or paid`);
    }
    if (fee) { v.disposals.push(fee); v.fees.push(fee); }
    if (received) addTo(v.balances, received.coin, received.amount);
    if (sent) addTo(v.balances, sent.coin, sent.amount.neg());
    if (fee) addTo(v.balances, fee.coin, fee.amount.neg());
  }
  return v;
}
