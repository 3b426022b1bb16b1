import type { AccountHealth } from './accountHealth.js';

/**
 * How much a warning matters to a tax figure: 'red' changes or withholds one (a balance the
 * ledger cannot explain, a row without a value, a record not yet settled, a disposal without a
 * cost, records that could not be read); 'amber' leaves a figure to be checked or completed (an
 * opening balance without a cost, history before the default start, malformed records); 'info'
 * changes none (an order gap the fills cover: orders carry no tax figure).
 */
export type WarningSeverity = 'red' | 'amber' | 'info';

/** One warning, with what it does to a tax figure and how to fix it. */
export interface AccountWarning {
  severity: WarningSeverity;
  /** Stable name, for tests and scripts. */
  code: string;
  text: string;
  fix?: string;
}

const rank: Record<WarningSeverity, number> = { red: 0, amber: 1, info: 2 };
const day = (iso: string) => iso.slice(0, 10);
const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
// "A serves only the last 90 days" and "B serves only the last 90 days" read as "A and B serve
// only the last 90 days"; reasons of other shapes are listed as they are.
const reasonsOf = (reasons: string[]): string => {
  const distinct = [...new Set(reasons)];
  const parts = distinct.map((r) => /^(\S+) serves (.+)$/.exec(r));
  const tail = parts[0]?.[2];
  if (distinct.length > 1 && parts.every((m) => m !== null && m[2] === tail)) return `${andList(parts.map((m) => m![1]!))} serve ${tail}`;
  return distinct.join('; ');
};
/** ['a', 'b', 'c'] as 'a, b and c'. */
export const andList = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * Every warning of one account, most serious for a tax figure first (then in a fixed order of
 * kinds), so the portal and `tradeledger status` rank them alike.
 *
 * @example
 * rankedWarnings(health, { imported: false }).filter((w) => w.severity === 'red')
 */
export function rankedWarnings(h: AccountHealth, account: { imported: boolean }): AccountWarning[] {
  const out: AccountWarning[] = [];
  // An imported wallet has no sync streams: its rows come from `tradeledger import transactions`.
  if (h.streams === 0 && !account.imported) out.push({ severity: 'red', code: 'never_synced', text: 'Never synced: there is no data for this account yet.', fix: 'tradeledger sync' });
  if (h.reconciliationDifferences > 0) {
    out.push({ severity: 'red', code: 'unexplained_balance', text: `${n(h.reconciliationDifferences, 'balance')} ${h.reconciliationDifferences === 1 ? 'differs' : 'differ'} from the exchange's own figure and nothing explains why: a record is missing or wrong, so gains and holdings are off.`, fix: 'tradeledger reconcile names the first record where the balances part' });
  }
  for (const f of h.failedStreams) {
    out.push({ severity: 'red', code: 'failed_stream', text: `Stream ${f.stream}${f.partition === 'all' ? '' : `/${f.partition}`} failed in the last sync${f.error ? `: ${f.error.slice(0, 160)}` : ''}; its records may be missing from every figure.`, fix: 'tradeledger sync (resumes where it stopped)' });
  }
  for (const g of h.gaps.filter((x) => x.kind === 'tax')) {
    out.push({ severity: 'red', code: 'history_gap', text: `History gap in ${g.stream}: ${day(g.from)} to ${day(g.to)} cannot be read (${g.reason}); its movements are missing from every figure.` });
  }
  if (h.unpricedRows > 0) {
    // docs/valuation.md: an imported line valued in another currency (a Koinly Net Worth in GBP)
    // or a fiat row needs the ECB rate of its day, so a missing FX file is a cause as well.
    out.push({ severity: 'red', code: 'unpriced', text: `${h.unpricedRows} ledger row(s) have no ${h.unpricedFiat} value (no candle, fill price, stablecoin quote, or ECB rate for a value in another currency): ${h.unpricedFiat} values and ${h.unpricedFiat} gains leave them out.`, fix: 'see data-quality.csv, kind unpriced; for values in another currency, tradeledger import fx eurofxref-hist.zip' });
  }
  if (h.overdueRecords > 0) {
    out.push({ severity: 'red', code: 'unsettled', text: `${n(h.overdueRecords, 'deposit, withdrawal or transfer', 'deposits, withdrawals or transfers')} ${h.overdueRecords === 1 ? 'has' : 'have'} not settled after more than 3 days (the oldest since ${day(h.unsettledSince!)}): not in the ledger until the exchange settles them.`, fix: 'tradeledger sync re-checks them on every run; ask the exchange about any that stays open' });
  } else if (h.unsettledRecords > 0) {
    // In flight for less than the limit: the normal state of a live account, no tax figure wrong yet.
    out.push({ severity: 'info', code: 'in_flight', text: `${n(h.unsettledRecords, 'deposit, withdrawal or transfer', 'deposits, withdrawals or transfers')} in flight since ${day(h.unsettledSince!)}: in the ledger once settled; each sync re-checks them.` });
  }
  if (h.disposalsWithoutCost > 0) {
    out.push({ severity: 'red', code: 'disposal_without_cost', text: `${n(h.disposalsWithoutCost, 'disposal')} in the newest gains run had no cost: the whole proceeds count as gain.`, fix: 'cost the opening balances (tradeledger reconcile --out DIR, opening-balances.csv), or sync older history (tradeledger sync --since an earlier date)' });
  }
  if (h.openingBalances > 0) {
    out.push({ severity: 'amber', code: 'opening_balance', text: `${n(h.openingBalances, 'balance')} ${h.openingBalances === 1 ? 'includes' : 'include'} coins held before the first record read: a holding without a known cost until its history is read or the accountant gives one.`, fix: 'where the exchange still serves that history, tradeledger sync --since an earlier date reads it; otherwise tradeledger reconcile --out DIR writes opening-balances.csv; fill its costs and tradeledger import transactions it' });
  }
  const unread = h.gaps.filter((x) => x.kind === 'default_start');
  if (unread.length > 0) {
    const before = unread.map((g) => g.to).sort()[0]!;
    // How far back it started is in the gap's reason (historyGap.ts): 730 days unless configured.
    const days = unread.map((g) => /started (\d+) days back/.exec(g.reason)?.[1]).find((d) => d !== undefined);
    out.push({ severity: 'amber', code: 'default_start', text: `History before ${day(before)} was not read in ${n(unread.length, 'stream')} (the first sync's default start, ${days === undefined ? 'sync.historyDays' : `${days} days`} back): holdings bought before it have no cost.`, fix: 'run tradeledger sync --since YYYY-MM-DD (the account\'s opening date): the older history is read and added' });
  }
  for (const g of h.gaps.filter((x) => x.kind === 'orders' && !x.coveredByFills)) {
    out.push({ severity: 'amber', code: 'order_gap_uncovered', text: `Order history gap in ${g.stream}: ${day(g.from)} to ${day(g.to)} (${g.reason}); the fills of those dates are missing too.` });
  }
  if (h.flaggedRecords > 0) out.push({ severity: 'amber', code: 'flagged_records', text: `${n(h.flaggedRecords, 'record')} flagged as malformed or incomplete.`, fix: 'see data-quality.csv' });
  if (h.unclassifiedRows > 0) out.push({ severity: 'amber', code: 'unclassified', text: `${n(h.unclassifiedRows, 'ledger row')} unclassified or without a coin.`, fix: 'see data-quality.csv' });
  // One line per span of dates, however many streams share it: the exchange serves orders for the
  // last 90 days only, so every order stream of an account has the same gap, and an account page
  // read four near-identical lines (the spot orders and each futures product type's) per account.
  const covered = new Map<string, typeof h.gaps>();
  for (const g of h.gaps.filter((x) => x.kind === 'orders' && x.coveredByFills)) {
    const span = `${day(g.from)} to ${day(g.to)}`;
    covered.set(span, [...(covered.get(span) ?? []), g]);
  }
  for (const [span, gs] of covered) {
    const text = gs.length === 1
      ? `Order history gap in ${gs[0]!.stream}: ${span} (${gs[0]!.reason}).`
      : `Order history gaps in ${andList(gs.map((g) => g.stream))}: ${span} (${reasonsOf(gs.map((g) => g.reason))}).`;
    out.push({ severity: 'info', code: 'order_gap_covered', text: `${text} No tax figure changes: orders carry none, and the fills of those dates are read.` });
  }
  return out.map((w, i) => ({ w, i })).sort((a, b) => rank[a.w.severity] - rank[b.w.severity] || a.i - b.i).map(({ w }) => w);
}
