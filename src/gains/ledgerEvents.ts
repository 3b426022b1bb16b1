import { GainsDecimal, ZERO } from './gainsDecimal.js';
import { decimalOfText } from './scaledDecimal.js';
import type { Disposal, GainsEvent } from './gainsEvent.js';
import type { OwnTransfers } from './ownTransfers.js';
import { TRANSIT } from './lotMatcher.js';

/** One row of ledger_valued(fiat) as the runner reads it (numbers as text). */
export interface ValuedRow {
  account_uid: string;
  wallet: string;
  coin: string;
  /** Unix ms. */
  ms: number;
  /** Local date in the report's zone. */
  day: string;
  amount: string;
  kind: string;
  source: string;
  source_id: string;
  leg: string;
  counterparty: string | null;
  /** The ledger's order_id: a deposit's or withdrawal's chain transaction id, an import's TxHash. */
  order_id: string | null;
  /** Fiat value, same sign as amount; null when unpriced. */
  value: string | null;
  /** imported_transactions.label for imported rows (Koinly's Label column). */
  label: string | null;
  /** The valuation rule that gave `value` (ledger_valued's price_source), when read. */
  price_source?: string | null;
  /** imported_transactions.description for imported rows (Koinly's Description column). */
  description?: string | null;
  /** The correction in force on the row (ledger_corrections, sql/migrations/0067_ledger_corrections.sql), when read. */
  correction_id?: string | null;
  /** Its classification (gift_sent, income_staking, own_wallet, ...); `label` is then its Koinly label. */
  classification?: string | null;
  /** own_wallet: the other side of the move. */
  other_side?: string | null;
}

/** Income or an expense that is not a disposal (income.csv). */
export interface IncomeItem {
  category: string;
  asset: string;
  quantity: GainsDecimal;
  /** Signed fiat value: > 0 income, < 0 expense; null when unpriced. */
  value: GainsDecimal | null;
  ms: number;
  day: string;
  pool: string;
  ref: string;
}

/** A data-quality note of a run. */
export interface GainsProblem {
  problem: 'unpriced' | 'deposit_market_value' | 'withdrawal_not_disposal' | 'loan_not_disposal' | 'unmatched_transfer' | 'other_kind' | 'lot_selection_unused';
  ref: string;
  detail: string;
}

/** What one ledger transaction (rows of one source and source_id) turns into. */
export interface LedgerOutcome {
  events: GainsEvent[];
  income: IncomeItem[];
  problems: GainsProblem[];
}

// Ledger kinds that are income or expenses, with the category income.csv shows.
const incomeKinds: Record<string, string> = {
  realized_pnl: 'futures_realized_pnl',
  funding_fee: 'funding',
  interest: 'margin_interest',
  compensate: 'risk_fund_compensation',
  confiscated: 'confiscation',
  liquidation_fee: 'liquidation_fee',
};

// Koinly labels (imported transactions) that make a deposit income or a withdrawal a disposal.
// Every label reports/koinly.sql writes is here (issue 21: a koinly.csv of ours comes back in as
// the ledger it came from): 'realized gain', 'futures fee', 'funding fee' are Koinly's PNL tags
// ("The worth (market value) of deposits with this tag will increase your other gains", [K1] in
// docs/ledger.md): income in, a disposal and an expense out, as the ledger's realized_pnl,
// funding_fee and futures fee rows are; 'fee refund' is a refunded fee (the ledger's rebate).
const incomeLabels = new Set(['income', 'reward', 'staking', 'airdrop', 'mining', 'lending interest', 'loan interest', 'interest', 'fork', 'salary', 'cashback', 'other income',
  'realized gain', 'realized pnl', 'futures fee', 'funding fee', 'fee refund']);
const spendLabels = new Set(['gift', 'donation', 'cost', 'payment', 'lost', 'stolen', 'burn', 'margin fee', 'loan fee', 'tax', 'realized gain', 'realized pnl', 'futures fee', 'funding fee']);
// Outgoing labels that are also an expense of the year (income.csv, negative).
const expenseLabels = new Set(['cost', 'margin fee', 'loan fee', 'tax', 'realized gain', 'realized pnl', 'futures fee', 'funding fee']);
// The kinds handled before the row-by-row branches of ledgerEvents, which take none of them.
const settledKinds = new Set(['trade_buy', 'trade_sell', 'exchange_in', 'exchange_out', 'fee', 'transfer_in', 'transfer_out']);
// Loan principal ([K1] "Loan tags ... Loan, Margin loan"; [K4] "Loan repayment"): neither an
// acquisition nor a disposal, as the ledger's borrow and repay.
const loanLabels = new Set(['loan', 'margin loan', 'loan repayment', 'margin repayment']);
// A one-sided margin trade leg as reports/koinly.sql writes it: untagged (Koinly: "Without any
// tags, deposits are considered acquisitions ... withdrawals are considered disposals of assets
// (equivalent to "sold at market price")", [K1]; it has no tag for one side of a trade), named by
// the Description it starts with. Such a withdrawal is a sale, not a move to the user's own wallet.
const tradeLegDescription = /^(trade_buy|trade_sell|exchange_in|exchange_out) \S*margin /;

// The sign of an amount, decided on its text (never a float): PostgreSQL's numeric text is an
// optional '-', digits and a point, so the sign is the '-' when any digit is not 0. Any other
// spelling (an exponent, a '+') goes through the decimal, as before.
const plainDecimal = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;
const sign = (amount: string): number => {
  if (!plainDecimal.test(amount)) return new GainsDecimal(amount).cmp(0);
  for (let i = 0; i < amount.length; i++) {
    const c = amount.charCodeAt(i);
    if (c >= 49 && c <= 57) return amount.charCodeAt(0) === 45 ? -1 : 1;
  }
  return 0;
};
/**
 * |text| as a decimal, equal to `new GainsDecimal(text).abs()`, read in one pass over the text
 * (decimalOfText: decimal.js's layout without its parse, about a fifth of its time; issue 24: a
 * quantity and a value per ledger row). Text that is not a plain numeric goes through decimal.js,
 * which reads it or refuses it as before.
 *
 * @example
 * absOf('-12.50').toFixed(); // '12.5'
 */
export const absOf = (text: string): GainsDecimal => decimalOfText(text, true);
/**
 * `x.plus(0)` without the work when it changes nothing: decimal.js rounds a sum to 60 significant
 * digits, and x keeps at most 7 digits in each word of `d`, so up to 8 words it is already the sum
 * (x itself: decimal.js values are immutable). Every trade leg's value went through this `plus`
 * or a `minus` of zero (issue 24).
 */
export const plusZero = (x: GainsDecimal): GainsDecimal => (x.d !== undefined && x.d !== null && x.d.length <= 8 ? x : x.plus(ZERO));
const refOf = (r: ValuedRow) => `${r.source}|${r.source_id}|${r.leg}`;
// An imported opening balance (opening-balances.csv, TxHash opening-balance:<uid>:<wallet>:<coin>,
// sql/schema/views/reconciliation.sql) opens that account's wallet, so its lot belongs to that wallet's pool.
const openingOf = (r: ValuedRow) => (r.source === 'imported_transactions' ? /^opening-balance:([^:]+):([^:]+):/.exec(r.order_id ?? '') : null);
const poolOf = (r: ValuedRow) => {
  const opening = openingOf(r);
  if (opening) return `${opening[1]}:${opening[2]}`;
  return r.account_uid === r.wallet ? r.wallet : `${r.account_uid}:${r.wallet}`;
};

/**
 * Turns one ledger transaction (its rows share source and source_id) into gains events, income
 * and data-quality notes. Rules (docs/gains.md):
 *  - trade legs (trade_buy/trade_sell, exchange_in/out): an acquisition of what came in and a
 *    disposal of what went out, each at its own fiat value; the fiat currency itself is no asset;
 *  - a fee: its value goes into the cost of the trade's acquisition, or off the proceeds when the
 *    trade acquired only fiat; a fee paid in a coin is also a disposal of that coin at its value
 *    (HMRC CRYPTO22150; IRS; BMF) - a negative fee (rebate) is income;
 *  - own-account transfers move lots between pools; a withdrawal moves them out to
 *    'external:<address>' (not a disposal, flagged); a deposit that ends such a withdrawal (see
 *    OwnTransfers) moves them in again; any other deposit is an acquisition at its market value
 *    on arrival (flagged); borrow/repay are loan principal;
 *  - futures PnL, funding, margin interest, compensation, confiscation, liquidation fees: income
 *    or expense rows, and the coin comes in at its value or leaves as a disposal at its value.
 *
 * @example
 * const { events, income, problems } = ledgerEvents(rowsOfOneTrade, 'GBP');
 */
export function ledgerEvents(rows: ValuedRow[], fiat: string, transfers?: OwnTransfers): LedgerOutcome {
  const out: LedgerOutcome = { events: [], income: [], problems: [] };
  const upperFiat = fiat.toUpperCase();
  const isFiat = (coin: string) => coin === upperFiat || coin.toUpperCase() === upperFiat;
  // Valued on first use, so a row whose value nothing needs (a move) is never flagged unpriced.
  const values = new Map<ValuedRow, GainsDecimal>();
  const v = (r: ValuedRow): GainsDecimal => {
    let x = values.get(r);
    if (x === undefined) { x = valueOf(r, rows, out); values.set(r, x); }
    return x;
  };

  const acquire = (r: ValuedRow, cost: GainsDecimal) => {
    if (isFiat(r.coin)) return;
    out.events.push({ type: 'acquire', asset: r.coin, quantity: absOf(r.amount), cost, ts: r.ms, day: r.day, pool: poolOf(r), ref: refOf(r) });
  };
  // `costs`: the fees taken off `proceeds` (incidental costs of disposal), kept for gross figures.
  const dispose = (r: ValuedRow, proceeds: GainsDecimal, costs: GainsDecimal = ZERO) => {
    if (isFiat(r.coin)) return;
    const event: Disposal = { type: 'dispose', asset: r.coin, quantity: absOf(r.amount), proceeds, ts: r.ms, day: r.day, pool: poolOf(r), ref: refOf(r) };
    if (!costs.isZero()) event.costs = costs;
    out.events.push(event);
  };

  // The trade legs in, out, the fees paid and refunded: one pass over the rows (issue 24).
  const ins: ValuedRow[] = [];
  const outs: ValuedRow[] = [];
  const fees: ValuedRow[] = [];
  const rebates: ValuedRow[] = [];
  let cryptoIns = 0;
  let cryptoOuts = 0;
  for (const r of rows) {
    const k = r.kind;
    if (k === 'trade_buy' || k === 'exchange_in') {
      if (sign(r.amount) > 0) { ins.push(r); if (!isFiat(r.coin)) cryptoIns++; }
    } else if (k === 'trade_sell' || k === 'exchange_out') {
      if (sign(r.amount) < 0) { outs.push(r); if (!isFiat(r.coin)) cryptoOuts++; }
    } else if (k === 'fee') {
      const s = sign(r.amount);
      if (s < 0) fees.push(r); else if (s > 0) rebates.push(r);
    }
  }
  const tradeLike = ins.length + outs.length > 0;

  // Fees: into the cost of what the trade acquired (crypto), else off the proceeds of what it disposed of.
  let feeTotal = ZERO;
  for (const f of fees) feeTotal = feeTotal.plus(v(f));
  const feeOnIn = tradeLike && cryptoIns > 0;
  const feeOnOut = tradeLike && !feeOnIn && cryptoOuts > 0;

  for (let i = 0; i < ins.length; i++) {
    const r = ins[i]!;
    acquire(r, feeOnIn && i === 0 ? v(r).plus(feeTotal) : plusZero(v(r)));
  }
  for (let i = 0; i < outs.length; i++) {
    const r = outs[i]!;
    if (feeOnOut && i === 0) dispose(r, v(r).minus(feeTotal), feeTotal);
    else dispose(r, plusZero(v(r)));
  }
  for (const f of fees) {
    // A fee paid in a coin is a disposal of it; outside a trade (a withdrawal fee, a futures
    // trading fee) it is also an expense.
    dispose(f, v(f));
    if (!tradeLike) out.income.push(incomeItem(f, f.source === 'futures_bills' ? 'futures_fee' : 'fee', v(f).neg(), out));
  }
  for (const r of rebates) {
    out.income.push(incomeItem(r, 'fee_rebate', v(r), out));
    acquire(r, v(r));
  }

  const transferOut = rows.find((r) => r.kind === 'transfer_out');
  const transferIn = rows.find((r) => r.kind === 'transfer_in');
  if (transferOut && transferIn) {
    out.events.push({ type: 'move', asset: transferOut.coin, quantity: absOf(transferOut.amount), ts: transferOut.ms, day: transferOut.day, pool: poolOf(transferOut), toPool: poolOf(transferIn), ref: refOf(transferOut) });
  } else if (transferOut || transferIn) {
    // One side only (a margin or futures wallet records its own side): through a transit pool.
    const r = (transferOut ?? transferIn)!;
    const quantity = absOf(r.amount);
    const base = { type: 'move' as const, asset: r.coin, quantity, ts: r.ms, day: r.day, ref: refOf(r) };
    out.events.push(transferOut ? { ...base, pool: poolOf(r), toPool: TRANSIT } : { ...base, pool: TRANSIT, toPool: poolOf(r) });
  }

  for (const r of rows) {
    // Trade legs, fees and transfers were all handled above; none of the branches below takes them.
    if (settledKinds.has(r.kind)) continue;
    const label = (r.label ?? '').trim().toLowerCase();
    const tradeLeg = label === '' && tradeLegDescription.test(r.description ?? '') && !r.classification;
    const corrected = r.kind === 'deposit' || r.kind === 'withdrawal' ? r.classification ?? null : null;
    if (corrected && !isFiat(r.coin) && (corrected === 'own_wallet' || corrected === 'not_taxable' || corrected === 'gift_received')) {
      // An accountant's classification (docs/ledger.md#corrections): the row is what they say,
      // and no longer flagged as an assumption.
      const quantity = absOf(r.amount);
      if (r.kind === 'withdrawal') {
        // Out to the client's own wallet, or out without a disposal: the coins (and their cost) leave this pool.
        const external = corrected === 'own_wallet' ? `external:${r.other_side ?? r.counterparty ?? 'unknown'}` : 'external:not_taxable';
        out.events.push({ type: 'move', asset: r.coin, quantity, ts: r.ms, day: r.day, pool: poolOf(r), toPool: external, ref: refOf(r) });
        if (corrected === 'own_wallet') transfers?.withdrawn({ coin: r.coin, quantity, txid: r.order_id ?? '', pool: external, fromPool: poolOf(r), ms: r.ms });
        continue;
      }
      const own = corrected === 'own_wallet' ? transfers?.deposited(r.coin, quantity, r.order_id, r.ms, poolOf(r)) : undefined;
      if (own) {
        out.events.push({ type: 'move', asset: r.coin, quantity, ts: r.ms, day: r.day, pool: own.from.pool, toPool: poolOf(r), ref: refOf(r) });
        continue;
      }
      if (corrected === 'own_wallet') {
        out.problems.push({ problem: 'deposit_market_value', ref: refOf(r), detail: `${r.amount} ${r.coin} came from your own wallet ${r.other_side ?? ''}, whose cost this run does not know; cost = market value on arrival (${v(r).toFixed()} ${fiat})` });
      }
      // A gift received, or a deposit that is not taxable: acquired at its market value, not income.
      acquire(r, v(r));
    } else if ((r.kind === 'deposit' || r.kind === 'withdrawal') && loanLabels.has(label)) {
      out.problems.push({ problem: 'loan_not_disposal', ref: refOf(r), detail: `${label} of ${r.amount} ${r.coin}: loan principal, neither acquisition nor disposal` });
    } else if (r.kind === 'deposit' && tradeLeg) {
      acquire(r, v(r));
    } else if (r.kind === 'withdrawal' && tradeLeg) {
      dispose(r, v(r));
    } else if (r.kind === 'deposit') {
      const quantity = absOf(r.amount);
      const own = !incomeLabels.has(label) && !isFiat(r.coin) ? transfers?.deposited(r.coin, quantity, r.order_id, r.ms, poolOf(r)) : undefined;
      if (own) {
        out.events.push({ type: 'move', asset: r.coin, quantity, ts: r.ms, day: r.day, pool: own.from.pool, toPool: poolOf(r), ref: refOf(r) });
        continue;
      }
      if (incomeLabels.has(label)) out.income.push(incomeItem(r, label, v(r), out));
      else if (openingOf(r) && r.value !== null && (r.price_source ?? 'imported') === 'imported') { /* the accountant's stated cost */ }
      else if (!isFiat(r.coin)) out.problems.push({ problem: 'deposit_market_value', ref: refOf(r), detail: `${r.amount} ${r.coin} came in from outside without a known cost; cost = market value on arrival (${v(r).toFixed()} ${fiat})` });
      acquire(r, v(r));
    } else if (r.kind === 'withdrawal') {
      if (spendLabels.has(label)) {
        dispose(r, label === 'lost' || label === 'stolen' ? ZERO : v(r));
        if (expenseLabels.has(label)) out.income.push(incomeItem(r, label, v(r).neg(), out));
      } else if (!isFiat(r.coin)) {
        const quantity = absOf(r.amount);
        const external = `external:${r.counterparty ?? 'unknown'}`;
        out.events.push({ type: 'move', asset: r.coin, quantity, ts: r.ms, day: r.day, pool: poolOf(r), toPool: external, ref: refOf(r) });
        transfers?.withdrawn({ coin: r.coin, quantity, txid: r.order_id ?? '', pool: external, fromPool: poolOf(r), ms: r.ms });
        out.problems.push({ problem: 'withdrawal_not_disposal', ref: refOf(r), detail: `${r.amount} ${r.coin} left to ${r.counterparty ?? 'an unknown address'}: treated as a move to your own wallet, not a disposal` });
      }
    } else if (r.kind in incomeKinds) {
      const value = v(r);
      out.income.push(incomeItem(r, incomeKinds[r.kind]!, sign(r.amount) > 0 ? value : value.neg(), out));
      if (sign(r.amount) > 0) acquire(r, value); else dispose(r, value);
    } else if (r.kind === 'borrow' || r.kind === 'repay') {
      out.problems.push({ problem: 'loan_not_disposal', ref: refOf(r), detail: `${r.kind} of ${r.amount} ${r.coin}: loan principal, neither acquisition nor disposal` });
    } else if (r.kind === 'other') {
      out.problems.push({ problem: 'other_kind', ref: refOf(r), detail: `${r.amount} ${r.coin} of an unrecognised kind: left out of gains` });
    }
  }
  return out;
}

// The row's fiat value, positive. An unpriced row falls back on its own transaction: a trade leg
// takes the value of the other side (a trade swaps equal values; a fiat side is always priced),
// a fee the unit price of a leg in the same coin (it was charged at the trade's price). Else 0,
// flagged.
function valueOf(r: ValuedRow, rows: ValuedRow[], out: LedgerOutcome): GainsDecimal {
  if (r.value !== null) return absOf(r.value);
  const tradeSide = (x: ValuedRow) => (x.kind === 'trade_buy' || x.kind === 'exchange_in' ? 1 : x.kind === 'trade_sell' || x.kind === 'exchange_out' ? -1 : 0);
  const side = tradeSide(r);
  if (side !== 0) {
    const other = rows.filter((x) => tradeSide(x) === -side && x.value !== null);
    if (other.length > 0) return other.reduce((s, x) => s.plus(absOf(x.value!)), ZERO);
  }
  const sibling = rows.find((x) => x !== r && x.coin === r.coin && x.value !== null && sign(x.amount) !== 0);
  if (sibling) return new GainsDecimal(sibling.value!).div(sibling.amount).abs().times(absOf(r.amount));
  if (side !== 0) {
    // Both sides unpriced, but a fee with a price can still give the fee coin's leg its price.
    const other = rows.filter((x) => tradeSide(x) === -side);
    for (const o of other) {
      const priced = rows.find((x) => x !== o && x.coin === o.coin && x.value !== null && sign(x.amount) !== 0);
      if (priced) return new GainsDecimal(priced.value!).div(priced.amount).abs().times(new GainsDecimal(o.amount).abs());
    }
  }
  out.problems.push({ problem: 'unpriced', ref: refOf(r), detail: `${r.amount} ${r.coin} has no price: valued at 0` });
  return ZERO;
}

function incomeItem(r: ValuedRow, category: string, value: GainsDecimal, _out: LedgerOutcome): IncomeItem {
  // An unpriced row shows an empty value, not a made-up 0.
  return { category, asset: r.coin, quantity: decimalOfText(r.amount), value: r.value === null && value.isZero() ? null : value, ms: r.ms, day: r.day, pool: poolOf(r), ref: refOf(r) };
}
