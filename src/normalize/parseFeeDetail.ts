import { abs, add, compare, isZero, neg, sub } from './decimalString.js';
import { readFeeDetail } from './readFeeDetail.js';
import type { CoinFeePart, NewFeesPart } from './readFeeDetail.js';
import type { FeeFormat } from './feeFormat.js';
import type { FeeRow } from './feeRow.js';

export interface FeeContext {
  /** The coin the trade delivered (receivedCoin(side, base, quote)); newFees needs it. */
  receivedCoin?: string | null;
  /** The exchange's platform coin, used for deductions. Default 'BGB'. */
  platformCoin?: string;
  /**
   * What a positive received-coin fee means. Real fills send rebates positive ('rebate', the
   * default); an official example shows the opposite, so this is a setting.
   */
  positiveFeeIs?: 'rebate' | 'charge';
}

export interface ParsedFeeDetail {
  rows: FeeRow[];
  format: FeeFormat;
  /** Non-empty means the feeDetail can't be trusted: rows is then empty, store it raw and flag it. */
  problems: string[];
}

/**
 * Turns a feeDetail in any wire form into one row per coin actually paid (semantics in README.md).
 *
 * @example
 * // A buy of BTC whose 0.001 BTC fee was paid as 0.5 BGB:
 * parseFeeDetail('{"newFees":{"c":0,"d":-0.5,"r":0,"t":-0.001}}', { receivedCoin: 'BTC' }).rows;
 * // [{ coin: 'BGB', paid: '0.5', platformDeducted: '0.5', payableInReceivedCoin: '0.001', receivedCoin: 'BTC', ... }]
 */
export function parseFeeDetail(input: unknown, context: FeeContext = {}): ParsedFeeDetail {
  const shape = readFeeDetail(input);
  if (shape.problems.length > 0) return { rows: [], format: shape.format, problems: shape.problems };
  const settings = {
    receivedCoin: context.receivedCoin ?? null,
    platformCoin: context.platformCoin ?? 'BGB',
    positiveFeeIs: context.positiveFeeIs ?? 'rebate',
  };
  const rows: FeeRow[] = [];
  const problems: string[] = [];
  for (const part of shape.parts) {
    const result = part.kind === 'newFees' ? newFeesRows(part, settings, shape.format) : coinFeeRows(part, settings, shape.format);
    if (typeof result === 'string') problems.push(result);
    else rows.push(...result);
  }
  if (problems.length > 0) return { rows: [], format: shape.format, problems };
  return { rows: mergeByCoin(rows), format: shape.format, problems: [] };
}

type Settings = { receivedCoin: string | null; platformCoin: string; positiveFeeIs: 'rebate' | 'charge' };

function newFeesRows(part: NewFeesPart, s: Settings, format: FeeFormat): FeeRow[] | string {
  const received = s.receivedCoin;
  if (received === null) return 'newFees names no coin: pass receivedCoin (the base coin on a buy, the quote coin on a sell)';
  const [t, c, d, r] = [abs(part.t), abs(part.c), abs(part.d), abs(part.r)];
  const row = (coin: string, paid: string, extra: Partial<FeeRow> = {}): FeeRow => ({
    coin, paid, platformDeducted: '0', couponCovered: '0', payableInReceivedCoin: '0', receivedCoin: received,
    format, rebate: paid.startsWith('-'), raw: part.raw, ...extra,
  });
  if (isZero(d) && isZero(c) && !isZero(t) && hasRebateSign(part.t, s)) {
    if (!isZero(r) && compare(r, t) !== 0) return `newFees rebate t=${part.t} disagrees with r=${part.r}`;
    return [row(received, neg(t), { payableInReceivedCoin: neg(t) })];
  }
  if (compare(c, t) > 0) return `newFees coupon c=${part.c} exceeds the fee payable t=${part.t}`;
  if (isZero(d)) {
    // No platform-coin deduction: whatever the coupon didn't cover was paid in the received coin.
    // Real responses repeat that amount in r; the spec's reading leaves r at 0. Both agree with t - c.
    const paid = sub(t, c);
    if (!isZero(r) && compare(r, paid) !== 0) return `newFees r=${part.r} disagrees with t - c = ${paid} although nothing was deducted in the platform coin`;
    return isZero(t) ? [] : [row(received, paid, { couponCovered: c, payableInReceivedCoin: t })];
  }
  if (compare(add(r, c), t) > 0) return `newFees remainder r=${part.r} plus coupon c=${part.c} exceeds the fee payable t=${part.t}`;
  const platform = row(s.platformCoin, d, { platformDeducted: d });
  if (isZero(r) && isZero(c)) return [{ ...platform, payableInReceivedCoin: t }];
  return [row(received, r, { couponCovered: c, payableInReceivedCoin: t }), platform];
}

function coinFeeRows(part: CoinFeePart, s: Settings, format: FeeFormat): FeeRow[] | string {
  const where = format === 'legacy' ? `legacy fee of ${part.coin}` : `fee in ${part.coin}`;
  if (part.deduction) {
    if (part.coin !== s.platformCoin) return `${where} says deduction applied, but deductions are paid in the platform coin ${s.platformCoin}: check the platformCoin setting`;
    if (part.totalDeductionFee === null) return `${where} says deduction applied but totalDeductionFee is missing`;
    const paid = abs(part.totalDeductionFee);
    if (isZero(paid)) {
      if (part.totalFee !== null && !isZero(part.totalFee)) return `${where} says deduction applied but totalDeductionFee is 0 while totalFee=${part.totalFee}`;
      return [];
    }
    const payable = part.totalFee === null ? '0' : abs(part.totalFee);
    return [{
      coin: part.coin, paid, platformDeducted: paid, couponCovered: '0', payableInReceivedCoin: payable,
      receivedCoin: s.receivedCoin, format, rebate: false, raw: part.raw,
    }];
  }
  if (part.totalFee === null) return `${where} has no totalFee`;
  // Without a deduction the fee coin is the received coin, even when that is the platform coin
  // (buying BGB): the received-coin sign rule applies, so a positive maker rebate stays a rebate.
  const rebate = !isZero(part.totalFee) && hasRebateSign(part.totalFee, s);
  const paid = rebate ? neg(abs(part.totalFee)) : abs(part.totalFee);
  if (isZero(paid)) return [];
  return [{
    coin: part.coin, paid, platformDeducted: '0', couponCovered: '0', payableInReceivedCoin: paid,
    receivedCoin: part.coin, format, rebate, raw: part.raw,
  }];
}

function hasRebateSign(amount: string, s: Settings): boolean {
  const negative = amount.startsWith('-');
  return s.positiveFeeIs === 'rebate' ? !negative : negative;
}

function mergeByCoin(rows: FeeRow[]): FeeRow[] {
  const merged = new Map<string, FeeRow>();
  for (const row of rows) {
    const seen = merged.get(row.coin);
    if (seen === undefined) {
      merged.set(row.coin, { ...row, raw: { ...row.raw } });
      continue;
    }
    const paid = add(seen.paid, row.paid);
    merged.set(row.coin, {
      ...seen,
      paid,
      platformDeducted: add(seen.platformDeducted, row.platformDeducted),
      couponCovered: add(seen.couponCovered, row.couponCovered),
      payableInReceivedCoin: add(seen.payableInReceivedCoin, row.payableInReceivedCoin),
      receivedCoin: seen.receivedCoin ?? row.receivedCoin,
      rebate: paid.startsWith('-'),
      raw: { ...seen.raw, ...row.raw },
    });
  }
  return [...merged.values()];
}
