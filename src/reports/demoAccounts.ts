import type pg from 'pg';
import type { ReportFormat } from './reportFormats.js';

/** A demo-trading (paper) account whose rows the tax outputs leave out unless asked, and why. */
export interface DemoAccount {
  account: string;
  name: string;
  reason: string;
}

/** What a manifest or gains summary says about demo trading. */
export interface DemoNote {
  /** True when demo-trading rows were asked for (`--include-demo`, the portal's checkbox). */
  included: boolean;
  /** What this output did with them. */
  treatment: string;
  /** The demo accounts (the demo_accounts view, sql/schema/views/demo_accounts.sql); empty when there are none. */
  accounts: DemoAccount[];
}

/**
 * Reads the demo_accounts view (sql/schema/views/demo_accounts.sql) for one account or all (''): accounts the config marks
 * demo, and accounts with records in a demo product type, each with its reason.
 *
 * @example
 * const demo = await readDemoAccounts(client, ''); // [{ account: '2367884889', name: 'demo', reason: '...' }]
 */
export async function readDemoAccounts(client: pg.ClientBase, account: string): Promise<DemoAccount[]> {
  const { rows } = await client.query<{ uid: string; name: string; reason: string }>(
    `SELECT uid, name, reason FROM demo_accounts WHERE $1 = '' OR uid = $1 ORDER BY uid`, [account]);
  return rows.map((r) => ({ account: r.uid, name: r.name, reason: r.reason }));
}

const outOfTax = 'their coins (SUSDT, SBTC, ...) are virtual, so no row of theirs is a taxable event';

/**
 * The sentence a report manifest gives for demo trading in a format (docs/ledger.md).
 *
 * @example
 * demoTreatment('koinly', false); // 'left out: ...'
 */
export function demoTreatment(format: ReportFormat | 'gains', included: boolean): string {
  if (format === 'native') {
    return 'kept and marked: their rows carry demo = true in ledger.csv, trades.csv, fees.csv, futures-pnl.csv and valued-ledger.csv (valued 0 there, price_source demo); data-quality.csv leaves them out';
  }
  if (!included) return `left out: ${outOfTax}; --include-demo (the portal's "Include demo-trading accounts") puts them in, valued 0`;
  const marked = format === 'gains' ? 'their disposals and income rows have proceeds, cost and value 0'
    : format === 'cointracker' ? 'CoinTracker\'s columns have no place to mark them'
      : format === 'cointracking' ? 'their Comment starts with DEMO' : 'their Description starts with DEMO';
  return `included on request (--include-demo): every demo row is valued 0 (price_source demo), never as the real coin, so it adds no fiat figure; ${marked}`;
}
