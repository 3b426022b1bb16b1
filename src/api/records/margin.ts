import type { Str } from './envelope.js';

export const marginTaxTypes = [
  'transfer_in', 'transfer_out', 'borrow', 'repay', 'liquidation_fee', 'compensate',
  'deal_in', 'deal_out', 'interest_repay', 'confiscated', 'exchange_in', 'exchange_out',
] as const;
export type MarginTaxType = (typeof marginTaxTypes)[number];

/** Spec §2.7, E5. */
export interface MarginRecord {
  id: Str;
  coin: Str;
  symbol: Str;
  marginTaxType: MarginTaxType;
  amount: Str;
  fee: Str;
  total: Str;
  ts: Str;
}

/** Spec §2.6, E13 element. Note `partially_fill` and `systemRepay-selll`, kept as the spec spells them. */
export interface CrossMarginOrder {
  symbol: Str;
  orderId: Str;
  clientOid: Str;
  size: Str;
  amount: Str;
  priceAvg: Str;
  price: Str;
  force: 'gtc' | 'post_only' | 'fok' | 'ioc';
  enterPointSource: 'WEB' | 'API' | 'SYS' | 'ANDROID' | 'IOS';
  status: 'live' | 'partially_fill' | 'filled' | 'cancelled' | 'reject';
  side: 'sell' | 'buy' | 'liquidation-buy' | 'liquidation-sell' | 'systemRepay-buy' | 'systemRepay-selll';
  baseSize: Str;
  quoteSize: Str;
  orderType: 'limit' | 'market';
  loanType: 'normal' | 'autoLoan' | 'autoRepay' | 'autoLoanAndRepay';
  cTime: Str;
  uTime: Str;
}

export interface CrossMarginOrderPage {
  orderList: CrossMarginOrder[];
  maxId: Str;
  minId: Str;
}
