import type { Str } from './envelope.js';

/** Spec §2.2; also the element of X1 spot history-orders. `feeDetail` is a JSON *string* (§2.3). */
export interface SpotOrder {
  userId: Str;
  symbol: Str;
  orderId: Str;
  clientOid: Str;
  price: Str;
  size: Str;
  orderType: 'limit' | 'market';
  side: 'buy' | 'sell';
  status: 'live' | 'partially_filled' | 'filled' | 'cancelled';
  priceAvg: Str;
  baseVolume: Str;
  quoteVolume: Str;
  enterPointSource: 'WEB' | 'IOS' | 'ANDROID' | 'API' | 'SYS';
  orderSource: 'normal' | 'market' | 'spot_trader_buy' | 'spot_follower_buy' | 'spot_trader_sell' | 'spot_follower_sell';
  feeDetail: Str;
  cancelReason: '' | 'normal_cancel' | 'stp_cancel';
  cTime: Str;
  uTime: Str;
}

/** The object form of feeDetail on spot fills (api-notes.md). */
export interface SpotFillFeeDetail {
  deduction: 'yes' | 'no';
  feeCoin: Str;
  totalDeductionFee: Str;
  totalFee: Str;
}

/** X2 spot fills element. */
export interface SpotFill {
  userId: Str;
  symbol: Str;
  orderId: Str;
  tradeId: Str;
  orderType: 'limit' | 'market';
  side: 'buy' | 'sell';
  priceAvg: Str;
  size: Str;
  amount: Str;
  feeDetail: SpotFillFeeDetail;
  tradeScope: 'taker' | 'maker';
  cTime: Str;
  uTime: Str;
}

/** X4 spot account bill. */
export interface SpotBill {
  billId: Str;
  coin: Str;
  groupType: Str;
  businessType: Str;
  size: Str;
  balance: Str;
  fees: Str;
  cTime: Str;
}

export interface PlaceOrderResult {
  orderId: Str;
  clientOid: Str;
}

/** Spec §2.4. */
export interface BatchOrderResult {
  successList: { orderId: Str; clientOid: Str }[];
  failureList: { orderId: Str; clientOid: Str; errorMsg: Str; errorCode: Str }[];
}

/** Spec §2.5. */
export interface CancelReplaceItemResult {
  orderId: Str;
  clientOid: Str | null;
  success: 'success' | 'failure';
  msg: Str;
}
