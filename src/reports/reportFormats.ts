/** The output formats of `tradeledger report`. */
export const reportFormats = ['native', 'koinly', 'cointracking', 'cointracker'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** One CSV: the query in reports/ that makes it and the file it is written to. */
export interface ReportFile {
  query: string;
  file: string;
}

const native = [
  'ledger', 'trades', 'margin-records', 'futures-pnl', 'deposits-withdrawals', 'transfers', 'fees',
  'balances', 'reconciliation', 'data-quality', 'valued-ledger',
];

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
