import { addTo, emptyView, eventOf, refIn, undocumented, type ToolView } from './toolView.js';

// CryptoTaxCalculator's rules, from its documented type list (docs/ledger.md lists each with its
// source):
// - buy: Base acquired, Quote disposed of; sell: Base disposed of, Quote acquired; with Quote
//   blank CTC prices the Base at market (a one-sided acquisition or disposal);
// - realized-profit / realized-loss / margin-fee: derivative results (Derivatives Trading Report);
// - receive / send, borrow / loan-repayment: movements that are not capital-gains events;
// - fee: a disposal counted as a fee; income: an income event at market value, which also
//   acquires the coin; lost: "triggers a capital loss event similar to the stolen category" (a
//   disposal for nothing).
/**
 * Reads ctc.csv rows back the way CryptoTaxCalculator would.
 *
 * @example
 * const view = ctcView(parse(text, { columns: true }));
 */
export function ctcView(rows: Record<string, string>[]): ToolView {
  const v = emptyView();
  for (const r of rows) {
    const ref = refIn(r.ID);
    const type = r.Type ?? '';
    const base = eventOf(ref, r['Base Currency'], r['Base Amount']);
    const quote = eventOf(ref, r['Quote Currency'], r['Quote Amount']);
    const fee = eventOf(ref, r['Fee Currency'], r['Fee Amount']);
    if (!base) throw new Error(`CTC row ${ref}: no Base`);
    let sign: 1 | -1;
    switch (type) {
      case 'buy':
        v.acquisitions.push(base); sign = 1;
        if (quote) { v.disposals.push(quote); v.trades.push(ref); }
        break;
      case 'sell':
        v.disposals.push(base); sign = -1;
        if (quote) { v.acquisitions.push(quote); v.trades.push(ref); }
        break;
      case 'realized-profit': v.otherGains.push(base); sign = 1; break;
      case 'realized-loss': v.otherGains.push({ ...base, amount: base.amount.neg() }); sign = -1; break;
      case 'margin-fee': v.otherGains.push({ ...base, amount: base.amount.neg() }); sign = -1; break;
      case 'fee': v.disposals.push(base); sign = -1; break;
      // [X5] income ("an income tax event based on the market value at the time of receipt") and the
      // other incoming reward types of the list (staking, airdrop, mining, interest, cashback,
      // incoming-gift), read the same way; their own one-line descriptions were not re-read for
      // issue 21 (docs/ledger.md).
      case 'income': case 'staking': case 'airdrop': case 'mining': case 'interest': case 'cashback': case 'incoming-gift':
        v.income.push(base); v.acquisitions.push(base); sign = 1; break;
      // [X5] outgoing-gift, stolen, expense: outgoing types of the list, read as a disposal.
      case 'outgoing-gift': case 'stolen': case 'expense': v.disposals.push(base); sign = -1; break;
      case 'lost': v.disposals.push(base); sign = -1; break;
      case 'receive': case 'borrow': v.nonTaxable.push(base); sign = 1; break;
      case 'send': case 'loan-repayment': v.nonTaxable.push(base); sign = -1; break;
      default: throw undocumented('CryptoTaxCalculator', 'Type', type, ref);
    }
    if (/^fee /.test(r.Description ?? '')) v.fees.push({ ...base, amount: base.amount.times(-sign) });
    if (fee) { v.disposals.push(fee); v.fees.push(fee); }
    addTo(v.balances, base.coin, base.amount.times(sign));
    if (quote) addTo(v.balances, quote.coin, quote.amount.times(-sign));
    if (fee) addTo(v.balances, fee.coin, fee.amount.neg());
  }
  return v;
}
