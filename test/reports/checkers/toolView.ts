import { Decimal as DecimalBase } from 'decimal.js';

// Amounts reach 30+ significant digits; decimal.js rounds to 20 by default.
export const Decimal = DecimalBase.clone({ precision: 200 });
export type Decimal = InstanceType<typeof Decimal>;

/** One coin amount a tool's rules give a meaning to; ref is our "source:source_id" for the row. */
export interface ToolEvent {
  ref: string;
  coin: string;
  amount: Decimal;
}

/**
 * What a tax tool would derive from our file, by its own documented rules: taxable disposals,
 * income, acquisitions, gains outside capital gains (futures PnL), non-taxable movements, the fees
 * it sees, the trades it sees and the balance per coin (and per wallet where the tool keeps one).
 */
export interface ToolView {
  disposals: ToolEvent[];
  acquisitions: ToolEvent[];
  income: ToolEvent[];
  otherGains: ToolEvent[];
  nonTaxable: ToolEvent[];
  /** Fees: > 0 paid, < 0 refunded. */
  fees: ToolEvent[];
  /** Refs of rows the tool reads as a trade (one disposal and one acquisition). */
  trades: string[];
  balances: Map<string, Decimal>;
  /** Per wallet name (the tool's wallet column) and coin, where the tool keeps one. */
  walletBalances: Map<string, Decimal>;
}

export function emptyView(): ToolView {
  return { disposals: [], acquisitions: [], income: [], otherGains: [], nonTaxable: [], fees: [], trades: [], balances: new Map(), walletBalances: new Map() };
}

/** Adds a signed amount to a per-key sum. */
export function addTo(sums: Map<string, Decimal>, key: string, amount: Decimal): void {
  sums.set(key, (sums.get(key) ?? new Decimal(0)).plus(amount));
}

/** An event when the amount cell is filled. */
export function eventOf(ref: string, coin: string | undefined, amount: string | undefined): ToolEvent | undefined {
  if (!amount) return undefined;
  if (!coin) throw new Error(`${ref}: amount ${amount} without a currency`);
  return { ref, coin, amount: new Decimal(amount) };
}

/** Our reference (source:source_id) out of a description that contains it. */
export function refIn(text: string | undefined): string {
  const m = /\b([a-z_]+:[^\s]+)/.exec(text ?? '');
  if (!m) throw new Error(`no source:source_id in "${text}"`);
  return m[1]!.replace(/:fee:.*$/, '').replace(/@.*$/, '');
}

/** A tool value the interpreter does not know: the file uses a value outside the tool's documented vocabulary. */
export function undocumented(tool: string, column: string, value: string, ref: string): Error {
  return new Error(`${tool}: ${column} "${value}" (row ${ref}) is not in the tool's documented vocabulary`);
}

/** Plain object of a per-coin sum map, zeros dropped, for comparisons. */
export function sumsOf(sums: Map<string, Decimal>): Record<string, string> {
  return Object.fromEntries([...sums].filter(([, d]) => !d.isZero()).sort(([a], [b]) => a.localeCompare(b)).map(([k, d]) => [k, d.toFixed()]));
}
