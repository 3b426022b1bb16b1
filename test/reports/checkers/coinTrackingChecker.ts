import { addTo, emptyView, eventOf, refIn, undocumented, type ToolView } from './toolView.js';

// CoinTracking's rules, from its help pages (docs/ledger.md lists each):
// - Trade: the sold coin is disposed of, the bought one acquired;
// - Deposit and Withdrawal: transfers of coins you own, non-taxable (legacy expanded types page);
// - Income: taxable income; Income (non taxable): an acquisition without income;
// - Other Fee, Borrowing Fee: a fee, disposed of; Lost: gone without a gain;
// - Derivatives / Futures Profit or Loss, Margin Profit or Loss: gains outside capital gains.
// Balances are kept per Exchange (our account and wallet) as well as per coin.
const gains = new Set(['Derivatives / Futures Profit', 'Margin Profit']);
const losses = new Set(['Derivatives / Futures Loss', 'Margin Loss']);
const fees = new Set(['Other Fee', 'Borrowing Fee']);

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
    if (type === 'Trade') {
      if (!bought || !sold) throw new Error(`CoinTracking Trade ${ref} needs both sides`);
      v.disposals.push(sold);
      v.acquisitions.push(bought);
      v.trades.push(ref);
    } else if (type === 'Deposit' || type === 'Withdrawal') {
      for (const e of [bought, sold]) if (e) v.nonTaxable.push(e);
    } else if (type === 'Income') {
      v.income.push(bought!);
    } else if (type === 'Income (non taxable)') {
      v.acquisitions.push(bought!);
      if (/^fee /.test(r.Comment ?? '')) v.fees.push({ ...bought!, amount: bought!.amount.neg() });
    } else if (fees.has(type)) {
      v.disposals.push(sold!);
      if (/^fee /.test(r.Comment ?? '')) v.fees.push(sold!);
    } else if (gains.has(type)) {
      v.otherGains.push(bought!);
    } else if (losses.has(type)) {
      v.otherGains.push({ ...sold!, amount: sold!.amount.neg() });
    } else if (type === 'Lost') {
      v.nonTaxable.push(sold!);
    } else {
      throw undocumented('CoinTracking', 'Type', type, ref);
    }
    if (fee) { v.disposals.push(fee); v.fees.push(fee); }
    const wallet = r.Exchange ?? '';
    for (const [e, sign] of [[bought, 1], [sold, -1], [fee, -1]] as const) {
      if (!e) continue;
      addTo(v.balances, e.coin, e.amount.times(sign));
      addTo(v.walletBalances, `${wallet} ${e.coin}`, e.amount.times(sign));
    }
  }
  return v;
}
