import { ExactDecimal } from './decimal.js';
import { fastFeeDetail } from './fastFeeDetail.js';
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
  return fastFeeDetail(input, context) ?? exactFeeDetail(input, context);
}

/**
 * parseFeeDetail's general path: any input, read by lossless-json (every number kept as its text)
 * and computed in decimal.js. parseFeeDetail takes it whenever the fast path
 * (`fastFeeDetail.ts`: plain JSON.parse and integers, for the usual feeDetail) is not sure to give
 * the same result; test/normalize/fastFeeDetail.test.ts holds the two equal.
 *
 * @example
 * exactFeeDetail('{"newFees":{"c":0,"d":0,"r":-1.10,"t":-1.10}}', { receivedCoin: 'USDT' }).rows[0]?.raw; // { 'newFees.r': '-1.10', 'newFees.t': '-1.10' }
 */
export function exactFeeDetail(input: unknown, context: FeeContext = {}): ParsedFeeDetail {
  const shape = readFeeDetail(input);
  if (shape.problems.length > 0) return { rows: [], format: shape.format, problems: shape.problems };
  const settings: Settings = {
    receivedCoin: context.receivedCoin ?? null,
    platformCoin: context.platformCoin ?? 'BGB',
    positiveFeeIs: context.positiveFeeIs ?? 'rebate',
    format: shape.format,
  };
  const rows: Row[] = [];
  const problems: string[] = [];
  for (const part of shape.parts) {
    const result = part.kind === 'newFees' ? newFeesRows(part, settings) : coinFeeRows(part, settings);
    if (typeof result === 'string') problems.push(result);
    else rows.push(...result);
  }
  if (problems.length > 0) return { rows: [], format: shape.format, problems };
  return { rows: mergeByCoin(rows).map((row) => finish(row, shape.format)), format: shape.format, problems: [] };
}

type Settings = { receivedCoin: string | null; platformCoin: string; positiveFeeIs: 'rebate' | 'charge'; format: FeeFormat };

// Rows are computed on decimals and written as text once, at the end.
interface Row {
  coin: string;
  paid: ExactDecimal;
  platformDeducted: ExactDecimal;
  couponCovered: ExactDecimal;
  payableInReceivedCoin: ExactDecimal;
  receivedCoin: string | null;
  raw: Record<string, string>;
}

const zero = new ExactDecimal(0);

function newFeesRows(part: NewFeesPart, s: Settings): Row[] | string {
  const received = s.receivedCoin;
  if (received === null) return 'newFees names no coin: pass receivedCoin (the base coin on a buy, the quote coin on a sell)';
  const [t, c, d, r] = [part.t, part.c, part.d, part.r].map((text) => new ExactDecimal(text).abs()) as [ExactDecimal, ExactDecimal, ExactDecimal, ExactDecimal];
  const row = (coin: string, paid: ExactDecimal, extra: Partial<Row> = {}): Row => ({
    coin, paid, platformDeducted: zero, couponCovered: zero, payableInReceivedCoin: zero, receivedCoin: received, raw: part.raw, ...extra,
  });
  if (d.isZero() && c.isZero() && !t.isZero() && hasRebateSign(part.t, s)) {
    if (!r.isZero() && !r.eq(t)) return `newFees rebate t=${part.t} disagrees with r=${part.r}`;
    return [row(received, t.negated(), { payableInReceivedCoin: t.negated() })];
  }
  if (c.gt(t)) return `newFees coupon c=${part.c} exceeds the fee payable t=${part.t}`;
  if (d.isZero()) {
    // No platform-coin deduction: whatever the coupon didn't cover was paid in the received coin.
    // Real responses repeat that amount in r; the spec's reading leaves r at 0. Both agree with t - c.
    const paid = t.minus(c);
    if (!r.isZero() && !r.eq(paid)) return `newFees r=${part.r} disagrees with t - c = ${paid.toFixed()} although nothing was deducted in the platform coin`;
    return t.isZero() ? [] : [row(received, paid, { couponCovered: c, payableInReceivedCoin: t })];
  }
  if (r.plus(c).gt(t)) return `newFees remainder r=${part.r} plus coupon c=${part.c} exceeds the fee payable t=${part.t}`;
  const platform = row(s.platformCoin, d, { platformDeducted: d });
  if (r.isZero() && c.isZero()) return [{ ...platform, payableInReceivedCoin: t }];
  return [row(received, r, { couponCovered: c, payableInReceivedCoin: t }), platform];
}

function coinFeeRows(part: CoinFeePart, s: Settings): Row[] | string {
  const where = s.format === 'legacy' ? `legacy fee of ${part.coin}` : `fee in ${part.coin}`;
  const totalFee = part.totalFee === null ? null : new ExactDecimal(part.totalFee);
  if (part.deduction) {
    if (part.coin !== s.platformCoin) return `${where} says deduction applied, but deductions are paid in the platform coin ${s.platformCoin}: check the platformCoin setting`;
    if (part.totalDeductionFee === null) return `${where} says deduction applied but totalDeductionFee is missing`;
    const paid = new ExactDecimal(part.totalDeductionFee).abs();
    if (paid.isZero()) {
      if (totalFee !== null && !totalFee.isZero()) return `${where} says deduction applied but totalDeductionFee is 0 while totalFee=${part.totalFee}`;
      return [];
    }
    return [{
      coin: part.coin, paid, platformDeducted: paid, couponCovered: zero, payableInReceivedCoin: totalFee === null ? zero : totalFee.abs(),
      receivedCoin: s.receivedCoin, raw: part.raw,
    }];
  }
  if (totalFee === null || part.totalFee === null) return `${where} has no totalFee`;
  if (totalFee.isZero()) return [];
  // Without a deduction the fee coin is the received coin, even when that is the platform coin
  // (buying BGB): the received-coin sign rule applies, so a positive maker rebate stays a rebate.
  const paid = hasRebateSign(part.totalFee, s) ? totalFee.abs().negated() : totalFee.abs();
  return [{
    coin: part.coin, paid, platformDeducted: zero, couponCovered: zero, payableInReceivedCoin: paid, receivedCoin: part.coin, raw: part.raw,
  }];
}

function hasRebateSign(amount: string, s: Settings): boolean {
  const negative = amount.startsWith('-');
  return s.positiveFeeIs === 'rebate' ? !negative : negative;
}

function mergeByCoin(rows: Row[]): Row[] {
  if (rows.length < 2) return rows;
  const merged = new Map<string, Row>();
  for (const row of rows) {
    const seen = merged.get(row.coin);
    merged.set(row.coin, seen === undefined ? row : {
      coin: row.coin,
      paid: seen.paid.plus(row.paid),
      platformDeducted: seen.platformDeducted.plus(row.platformDeducted),
      couponCovered: seen.couponCovered.plus(row.couponCovered),
      payableInReceivedCoin: seen.payableInReceivedCoin.plus(row.payableInReceivedCoin),
      receivedCoin: seen.receivedCoin ?? row.receivedCoin,
      raw: { ...seen.raw, ...row.raw },
    });
  }
  return [...merged.values()];
}

function finish(row: Row, format: FeeFormat): FeeRow {
  const paid = row.paid.toFixed();
  return {
    coin: row.coin,
    paid,
    platformDeducted: row.platformDeducted.toFixed(),
    couponCovered: row.couponCovered.toFixed(),
    payableInReceivedCoin: row.payableInReceivedCoin.toFixed(),
    receivedCoin: row.receivedCoin,
    format,
    rebate: paid.startsWith('-'),
    raw: { ...row.raw },
  };
}
