import type { EnumField } from './enumSpellings.js';

/**
 * What checkRecord expects of each resource: a minimal copy of the wire shapes in src/api/records
 * (normalize may not import api). Only fields a loader or report relies on are listed; unknown
 * extra fields are fine (the raw record keeps them).
 *
 * Kinds: `id`/`text` need non-empty text; `decimal` a decimal number; `amount` a decimal number the
 * API only ever sends zero or positive (a size, a price: the direction is in another field, such
 * as `side`), so a negative one is flagged and kept out of the ledger; `time` a Unix timestamp;
 * an EnumField a known spelling; the fee kinds a readable feeDetail in that form.
 * A `?` suffix marks an optional field: it may be absent, null or "" but, if present, must parse.
 */
export type FieldKind = 'id' | 'text' | 'decimal' | 'amount' | 'time' | 'feeDetail' | EnumField;
export type FieldSpec = `${FieldKind}` | `${FieldKind}?`;

export const recordShapes = {
  spotOrders: {
    orderId: 'id', symbol: 'text', side: 'side', orderType: 'orderType', status: 'orderStatus', size: 'amount',
    price: 'amount?', priceAvg: 'amount?', baseVolume: 'amount?', quoteVolume: 'amount?',
    enterPointSource: 'enterPointSource?', orderSource: 'orderSource?', feeDetail: 'feeDetail?',
    cancelReason: 'cancelReason?', cTime: 'time', uTime: 'time?',
  },
  spotFills: {
    tradeId: 'id', orderId: 'id', symbol: 'text', side: 'side', orderType: 'orderType?', priceAvg: 'amount',
    size: 'amount', amount: 'amount', feeDetail: 'feeDetail?', tradeScope: 'tradeScope?', cTime: 'time', uTime: 'time?',
  },
  spotBills: {
    billId: 'id', coin: 'text', businessType: 'text', size: 'decimal', balance: 'decimal', fees: 'decimal?', cTime: 'time',
  },
  marginRecords: {
    id: 'id', coin: 'text', marginTaxType: 'marginTaxType', amount: 'decimal', fee: 'decimal?', total: 'decimal?', ts: 'time',
  },
  crossMarginOrders: {
    orderId: 'id', symbol: 'text', status: 'orderStatus', side: 'side', orderType: 'orderType?', force: 'force?',
    size: 'amount?', amount: 'amount?', price: 'amount?', priceAvg: 'amount?', baseSize: 'amount?', quoteSize: 'amount?',
    enterPointSource: 'enterPointSource?', loanType: 'loanType?', cTime: 'time', uTime: 'time?',
  },
  futuresOrders: {
    orderId: 'id', symbol: 'text', size: 'amount', status: 'orderStatus', side: 'side', marginCoin: 'text',
    baseVolume: 'amount?', fee: 'decimal?', price: 'amount?', priceAvg: 'amount?', totalProfits: 'decimal?',
    quoteVolume: 'amount?', leverage: 'decimal?', force: 'force?', posSide: 'posSide?', marginMode: 'marginMode?',
    reduceOnly: 'reduceOnly?', enterPointSource: 'enterPointSource?', tradeSide: 'tradeSide?', posMode: 'posMode?',
    orderType: 'orderType?', orderSource: 'orderSource?', cTime: 'time', uTime: 'time?',
  },
  futuresFills: {
    tradeId: 'id', orderId: 'id', symbol: 'text', side: 'side', price: 'amount', baseVolume: 'amount',
    quoteVolume: 'amount?', profit: 'decimal?', feeDetail: 'feeDetail?', tradeSide: 'tradeSide?', posMode: 'posMode?',
    tradeScope: 'tradeScope?', marginMode: 'marginMode?', cTime: 'time',
  },
  futuresBills: {
    billId: 'id', coin: 'text', businessType: 'text', amount: 'decimal', fee: 'decimal?', feeByCoupon: 'decimal?',
    balance: 'decimal?', cTime: 'time',
  },
  planOrders: {
    orderId: 'id', planType: 'planType', symbol: 'text', size: 'amount', planStatus: 'planStatus', side: 'side',
    price: 'decimal?', executePrice: 'decimal?', callbackRatio: 'decimal?', triggerPrice: 'decimal?',
    triggerType: 'triggerType?', posSide: 'posSide?', marginMode: 'marginMode?', tradeSide: 'tradeSide?',
    posMode: 'posMode?', orderType: 'orderType?', orderSource: 'orderSource?', cTime: 'time', uTime: 'time?',
  },
  deposits: {
    orderId: 'id', coin: 'text', dest: 'walletDest', size: 'amount', status: 'walletStatus', cTime: 'time', uTime: 'time?',
  },
  withdrawals: {
    orderId: 'id', coin: 'text', dest: 'walletDest', size: 'amount', fee: 'decimal?', status: 'walletStatus',
    cTime: 'time', uTime: 'time?',
  },
  transfers: {
    transferId: 'id', coin: 'text', status: 'transferStatus', fromType: 'accountType', toType: 'accountType',
    size: 'amount', ts: 'time',
  },
  taxSpotRecords: { id: 'id', coin: 'text', spotTaxType: 'text', amount: 'decimal', fee: 'decimal?', total: 'decimal?', ts: 'time' },
  taxFutureRecords: { id: 'id', marginCoin: 'text', futureTaxType: 'text', amount: 'decimal', fee: 'decimal?', ts: 'time' },
  positions: {
    symbol: 'text', marginCoin: 'text', holdSide: 'holdSide', total: 'decimal', available: 'decimal?', locked: 'decimal?',
    marginSize: 'decimal?', achievedProfits: 'decimal?', unrealizedPL: 'decimal?', totalFee: 'decimal?',
    marginMode: 'marginMode?', posMode: 'posMode?', assetMode: 'assetMode?', cTime: 'time?', uTime: 'time?',
  },
  futuresAccounts: {
    marginCoin: 'text', available: 'decimal', locked: 'decimal?', accountEquity: 'decimal?', usdtEquity: 'decimal?',
    unrealizedPL: 'decimal?', coupon: 'decimal?', unionTotalMagin: 'decimal?', unionAvailable: 'decimal?',
    assetMode: 'assetMode?',
  },
  subAccounts: { subAccountUid: 'id', subAccountName: 'text?', status: 'subAccountStatus', cTime: 'time?', uTime: 'time?' },
  subAccountApiKeys: { subAccountUid: 'id', subAccountApiKey: 'text' },
} as const satisfies Record<string, Record<string, FieldSpec>>;

export type CheckedResource = keyof typeof recordShapes;
