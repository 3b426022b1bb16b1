import type { FeeFormat } from './feeFormat.js';

/**
 * One coin actually paid for one fee-bearing record. Sign convention (README.md): `paid` is
 * positive when money leaves the account and negative when it comes in (a maker rebate), so
 * summing `paid` per coin gives exactly what the fees took. All amounts are plain decimal text.
 */
export interface FeeRow {
  coin: string;
  /** What left the account in `coin`; negative for a rebate received. */
  paid: string;
  /** The part of `paid` that was a platform-coin deduction ("0" on other coins). */
  platformDeducted: string;
  /** The fee a coupon covered, in `receivedCoin`. Carried on one row per record only. */
  couponCovered: string;
  /** The fee payable before deductions, in `receivedCoin`; negative for a rebate. One row per record only. */
  payableInReceivedCoin: string;
  /** The coin of couponCovered and payableInReceivedCoin; null when the record doesn't say. */
  receivedCoin: string | null;
  format: FeeFormat;
  /** True exactly when `paid` is negative. */
  rebate: boolean;
  /** Wire text of every amount this row was built from, keyed by its path in the feeDetail. */
  raw: Record<string, string>;
}
