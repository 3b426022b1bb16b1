import type { Str } from './envelope.js';

/** Spec §2.8, E2 element. */
export interface ContractConfig {
  baseCoin: Str; buyLimitPriceRatio: Str; feeRateUpRatio: Str; limitOpenTime: Str; maintainTime: Str;
  makerFeeRate: Str; minTradeNum: Str; offTime: Str; openCostUpRatio: Str; priceEndStep: Str;
  pricePlace: Str; quoteCoin: Str; sellLimitPriceRatio: Str; sizeMultiplier: Str;
  supportMarginCoins: Str[]; symbol: Str; symbolStatus: Str; symbolType: Str; takerFeeRate: Str;
  volumePlace: Str; deliveryTime: Str; deliveryStartTime: Str; launchTime: Str; fundInterval: Str;
  minLever: Str; maxLever: Str; posLimit: Str;
}

export type TradeSide =
  | 'open' | 'close' | 'reduce_close_long' | 'reduce_close_short' | 'offset_close_long' | 'offset_close_short'
  | 'burst_close_long' | 'burst_close_short' | 'delivery_close_long' | 'delivery_close_short';

/** Spec §2.9, E21 element. Futures spell `canceled` with one l. */
export interface FuturesHistoryOrder {
  symbol: Str; size: Str; orderId: Str; clientOid: Str; baseVolume: Str; fee: Str; price: Str; priceAvg: Str;
  status: 'filled' | 'canceled';
  side: 'buy' | 'sell';
  force: 'ioc' | 'fok' | 'gtc' | 'post_only';
  totalProfits: Str;
  posSide: 'long' | 'short' | 'net';
  marginCoin: Str; quoteVolume: Str; leverage: Str;
  marginMode: 'isolated' | 'crossed';
  reduceOnly: 'YES' | 'NO';
  enterPointSource: 'WEB' | 'API' | 'SYS' | 'ANDROID' | 'IOS';
  tradeSide: TradeSide;
  posMode: 'one_way_mode' | 'hedge_mode';
  orderType: 'limit' | 'market';
  orderSource: Str;
  cTime: Str; uTime: Str;
  presetStopSurplusPrice: Str; presetStopLossPrice: Str;
}

export interface FuturesOrderPage<T> {
  entrustedList: T[];
  endId: Str;
}

/** Spec §2.10, E11 element. */
export interface PlanOrder {
  planType: 'normal_plan' | 'track_plan' | 'profit_loss';
  symbol: Str; size: Str; orderId: Str; clientOid: Str;
  price?: Str; executePrice: Str; callbackRatio?: Str; triggerPrice: Str;
  triggerType: 'fill_price' | 'mark_price' | 'index_price';
  planStatus: 'live' | 'not_trigger';
  side: Str;
  posSide: 'long' | 'short' | 'net';
  marginCoin: Str;
  marginMode: 'isolated' | 'crossed';
  enterPointSource: Str;
  tradeSide: 'open' | 'close';
  posMode: 'one_way_mode' | 'hedge_mode';
  orderType: 'limit' | 'market';
  orderSource: Str;
  cTime: Str; uTime: Str;
  stopSurplusExecutePrice: Str; stopSurplusTriggerPrice: Str; stopSurplusTriggerType: Str;
  stopLossExecutePrice: Str; stopLossTriggerPrice: Str; stopLossTriggerType: Str;
}

/** Spec §2.11, E12/E16 element. */
export interface Position {
  symbol: Str; marginCoin: Str; holdSide: 'long' | 'short'; openDelegateSize: Str; marginSize: Str;
  available: Str; locked: Str; total: Str; leverage: Str; achievedProfits: Str; openPriceAvg: Str;
  marginMode: 'isolated' | 'crossed'; posMode: 'one_way_mode' | 'hedge_mode'; unrealizedPL: Str;
  liquidationPrice: Str; keepMarginRate: Str; markPrice: Str; marginRatio: Str; breakEvenPrice: Str;
  totalFee: Str; deductedFee: Str; assetMode: 'single' | 'union'; autoMargin?: 'on' | 'off';
  cTime: Str; uTime: Str;
}

/** Spec §2.12, E14 element. `unionTotalMagin` is the spec's own spelling. */
export interface FuturesAccount {
  marginCoin: Str; locked: Str; available: Str; crossedMaxAvailable: Str; isolatedMaxAvailable: Str;
  maxTransferOut: Str; accountEquity: Str; usdtEquity: Str; btcEquity: Str; crossedRiskRate: Str;
  unrealizedPL: Str; coupon: Str; isolatedMargin: Str; crossedMargin: Str; crossedUnrealizedPL: Str;
  isolatedUnrealizedPL: Str; assetMode: 'union' | 'single'; unionTotalMagin: Str; unionAvailable: Str;
  unionMm: Str; assetList: { coin: Str; balance: Str }[];
}

/** The array-form feeDetail element on futures fills (api-notes.md). */
export interface FuturesFillFee {
  deduction: 'yes' | 'no';
  feeCoin: Str;
  totalDeductionFee: Str;
  totalFee: Str;
}

/** X5 futures fill. */
export interface FuturesFill {
  tradeId: Str; symbol: Str; orderId: Str; price: Str; baseVolume: Str;
  feeDetail: FuturesFillFee[];
  side: 'buy' | 'sell'; quoteVolume: Str; profit: Str; enterPointSource: Str;
  tradeSide: TradeSide; posMode: 'one_way_mode' | 'hedge_mode'; tradeScope: 'taker' | 'maker';
  marginCoin: Str; marginMode: 'isolated' | 'crossed';
  cTime: Str;
}

export interface FuturesFillPage {
  fillList: FuturesFill[];
  endId: Str;
}

/**
 * X6 futures account bill. businessType `contract_settle_fee` is a funding fee; `close_long` and
 * `close_short` carry realized PnL.
 */
export interface FuturesBill {
  billId: Str; symbol: Str; amount: Str; fee: Str; feeByCoupon: Str; businessType: Str; coin: Str;
  balance: Str; cTime: Str;
}

export interface FuturesBillPage {
  bills: FuturesBill[];
  endId: Str;
}
