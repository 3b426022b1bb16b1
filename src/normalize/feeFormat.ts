/**
 * Which wire form a feeDetail came in (see README.md):
 * - `new`: JSON text with `newFees` {c, d, r, t}, at the top level or nested in a coin object;
 * - `legacy`: JSON text keyed by coin, each value {deduction, feeCoinCode, totalDeductionFee, totalFee};
 * - `fill-object`: spot fills' object {deduction, feeCoin, totalDeductionFee, totalFee};
 * - `fill-array`: futures fills' array of that object;
 * - `empty`: "", null, absent, {} or [] (no fee charged yet);
 * - `malformed`: unreadable; no rows, the caller stores the raw value and flags it.
 */
export type FeeFormat = 'new' | 'legacy' | 'fill-object' | 'fill-array' | 'empty' | 'malformed';
