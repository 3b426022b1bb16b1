/** The output formats of `tradeledger report`. */
export const reportFormats = ['native', 'koinly', 'cointracking', 'cointracker', 'ctc'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** One CSV: the query in reports/ that makes it and the file it is written to. */
export interface ReportFile {
  query: string;
  file: string;
}

const native = [
  'ledger', 'trades', 'margin-records', 'futures-pnl', 'deposits-withdrawals', 'transfers', 'fees',
  'balances', 'reconciliation', 'data-quality', 'valued-ledger', 'corrections',
];

/**
 * The queries whose figures are values in the report's fiat (`--fiat`, ledger_valued): without the
 * ECB rates that fiat needs, the rows that need them come out with an empty value (valued-ledger's
 * value, Koinly's Net Worth, CTC's Reference Price). data-quality also reads the fiat, but only to
 * list those rows as unpriced, which is then its right content. test/reports/valuedReports.test.ts
 * holds this list to the queries in reports/ that read :'fiat'.
 */
export const fiatValuedQueries: readonly string[] = ['valued-ledger', 'koinly', 'ctc'];

/**
 * The CSVs each format writes: native writes one per subject, the tax-tool formats one file named
 * after the tool.
 *
 * @example
 * reportFiles('koinly'); // [{ query: 'koinly', file: 'koinly.csv' }]
 */
export function reportFiles(format: ReportFormat): ReportFile[] {
  const names = format === 'native' ? native : [format];
  return names.map((query) => ({ query, file: `${query}.csv` }));
}

/** What a format's manifest says about the file: which tool reads it and how movements were written. */
export interface FormatNotes {
  tool: string;
  /** How money moved between the exported accounts and wallets was written. */
  ownAccountMovements: string;
  /** Rows left out of the file besides own-account movements, and why. */
  leftOut: string;
}

const leftOutNone = 'nothing else: every other ledger row of the period is a row of the file';

/**
 * The manifest's per-format explanation (docs/ledger.md has the per-tool tables and sources).
 *
 * @example
 * formatNotes('koinly').ownAccountMovements; // 'left out: ...'
 */
export function formatNotes(format: ReportFormat): FormatNotes {
  switch (format) {
    case 'native':
      return { tool: 'none (tradeledger\'s own CSVs)', ownAccountMovements: 'kept: ledger.csv and transfers.csv show both legs of every movement', leftOut: leftOutNone };
    case 'koinly':
      return {
        tool: 'Koinly universal CSV: import the file into one Koinly wallet',
        ownAccountMovements: 'left out: both legs are inside this one file and net to zero; in one Koinly wallet they would be a sale and a purchase. Deposits and withdrawals with one leg outside stay untagged, so Koinly pairs them with your other wallet',
        leftOut: 'margin borrow and repay, and imported lines labelled as a loan: Koinly reads a loan as a purchase at market price and its repayment as a sale, tagged or not, while the ledger\'s gains take loan principal as neither (data-quality.csv lists each, kind tool_left_out). Koinly\'s gains equal the ledger\'s; its balance differs by the outstanding principal',
      };
    case 'cointracker':
      return {
        tool: 'CoinTracker CSV: import the file as one CoinTracker wallet',
        ownAccountMovements: 'left out: both legs are inside this one file and net to zero; untagged they would be income and a disposal',
        leftOut: 'margin borrow and repay: CoinTracker documents no CSV tag for a loan and would tax an untagged borrow as income; and one-sided margin trade legs (deal_in/deal_out, exchange_in/exchange_out): CoinTracker\'s margin tag is documented for a trade, not for one side of it, and an untagged Receive would be income (data-quality.csv lists each, kind tool_left_out). The file\'s balance differs from the ledger by the outstanding principal and by those legs\' net',
      };
    case 'cointracking':
      return {
        tool: 'CoinTracking CSV import: the Exchange column names the account and wallet of each row',
        ownAccountMovements: 'kept, per wallet, as Deposit and Withdrawal: CoinTracking treats both as non-taxable transfers, so each wallet keeps the ledger\'s balance',
        leftOut: leftOutNone,
      };
    case 'ctc':
      return {
        tool: 'CryptoTaxCalculator advanced CSV: import the file as one source',
        ownAccountMovements: 'left out: both legs are inside this one source and net to zero',
        leftOut: leftOutNone,
      };
  }
}
