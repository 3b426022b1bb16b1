/**
 * The endpoint table: one typed line per V2 endpoint the project knows. The client, the
 * extractors and the sandbox all read their rates, limits and spans from here, so the twin and
 * the client can never disagree about what the exchange allows.
 *
 * Rates marked `assumed` are not in the spec (spec §8 leaves them open); the values follow the
 * exchange's public docs and are documented in the README.
 *
 * @example
 * const e = endpoints.marginRecords; // { path: '/api/v2/tax/margin-record', ratePerSecond: 1, ... }
 */
export type Permission = 'read' | 'spot_trade' | 'margin_trade' | 'contract_trade';
export type HttpMethod = 'GET' | 'POST';

export interface EndpointDef {
  /** Spec id (E1..E21) or X1.. for the extra endpoints of api-notes.md. */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Requests per second per UID. */
  readonly ratePerSecond: number;
  /** True when the rate is our documented choice rather than a spec figure. */
  readonly rateAssumed?: boolean;
  /** Signed endpoints need ACCESS-* headers; public ones need none. */
  readonly signed: boolean;
  /**
   * Permission a key needs. `write` means "any trade permission": the spec names no permission
   * for user-management and withdrawal endpoints, so a read-only key is refused (40014).
   */
  readonly permission: Permission | 'write' | null;
  /** Page size default and maximum; a request above the maximum is rejected (40017). */
  readonly limit?: { readonly default: number; readonly max: number };
  /** Maximum endTime - startTime, in days. */
  readonly maxSpanDays?: number;
  /** How far back the endpoint can see, in days from now. */
  readonly horizonDays?: number;
  /** Futures endpoints accept demo product types with a demo key. */
  readonly futures?: boolean;
}

const DAY = 1;

export const endpoints = {
  placeSpotOrder: { id: 'E1', method: 'POST', path: '/api/v2/spot/trade/place-order', ratePerSecond: 10, signed: true, permission: 'spot_trade' },
  demoContracts: { id: 'E2', method: 'GET', path: '/api/v2/mix/market/contracts', ratePerSecond: 20, rateAssumed: true, signed: false, permission: null, futures: true },
  placeFuturesOrder: { id: 'E3', method: 'POST', path: '/api/v2/mix/order/place-order', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'contract_trade', futures: true },
  batchCancelReplace: { id: 'E4', method: 'POST', path: '/api/v2/spot/trade/batch-cancel-replace-order', ratePerSecond: 5, signed: true, permission: 'spot_trade' },
  marginRecords: { id: 'E5', method: 'GET', path: '/api/v2/tax/margin-record', ratePerSecond: 1, signed: true, permission: 'read', limit: { default: 500, max: 500 }, maxSpanDays: 30 * DAY },
  batchCreateSubAccounts: { id: 'E6', method: 'POST', path: '/api/v2/user/batch-create-subaccount-and-apikey', ratePerSecond: 1, signed: true, permission: 'write' },
  createSubAccountApiKey: { id: 'E7', method: 'POST', path: '/api/v2/user/create-virtual-subaccount-apikey', ratePerSecond: 5, signed: true, permission: 'write' },
  subAccountApiKeys: { id: 'E8', method: 'GET', path: '/api/v2/user/virtual-subaccount-apikey-list', ratePerSecond: 5, signed: true, permission: 'read' },
  brokerSubWithdrawal: { id: 'E9', method: 'POST', path: '/api/v2/broker/account/subaccount-withdrawal', ratePerSecond: 1, signed: true, permission: 'write' },
  subAccounts: { id: 'E10', method: 'GET', path: '/api/v2/user/virtual-subaccount-list', ratePerSecond: 10, signed: true, permission: 'read', limit: { default: 100, max: 500 } },
  pendingPlanOrders: { id: 'E11', method: 'GET', path: '/api/v2/mix/order/orders-plan-pending', ratePerSecond: 10, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY, futures: true },
  singlePosition: { id: 'E12', method: 'GET', path: '/api/v2/mix/position/single-position', ratePerSecond: 10, signed: true, permission: 'read', futures: true },
  crossMarginOpenOrders: { id: 'E13', method: 'GET', path: '/api/v2/margin/crossed/open-orders', ratePerSecond: 10, signed: true, permission: 'read', limit: { default: 100, max: 100 } },
  futuresAccounts: { id: 'E14', method: 'GET', path: '/api/v2/mix/account/accounts', ratePerSecond: 10, signed: true, permission: 'read', futures: true },
  spotOrderInfo: { id: 'E15', method: 'GET', path: '/api/v2/spot/trade/orderInfo', ratePerSecond: 20, signed: true, permission: 'read' },
  allPositions: { id: 'E16', method: 'GET', path: '/api/v2/mix/position/all-position', ratePerSecond: 5, signed: true, permission: 'read', futures: true },
  batchPlaceSpotOrders: { id: 'E17', method: 'POST', path: '/api/v2/spot/trade/batch-orders', ratePerSecond: 5, signed: true, permission: 'spot_trade' },
  spotWithdrawal: { id: 'E18', method: 'POST', path: '/api/v2/spot/wallet/withdrawal', ratePerSecond: 5, signed: true, permission: 'write' },
  transfers: { id: 'E19', method: 'GET', path: '/api/v2/spot/account/sub-main-trans-record', ratePerSecond: 20, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY },
  deposits: { id: 'E20', method: 'GET', path: '/api/v2/spot/wallet/deposit-records', ratePerSecond: 10, signed: true, permission: 'read', limit: { default: 20, max: 100 } },
  futuresHistoryOrders: { id: 'E21', method: 'GET', path: '/api/v2/mix/order/orders-history', ratePerSecond: 10, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY, horizonDays: 90 * DAY, futures: true },

  spotHistoryOrders: { id: 'X1', method: 'GET', path: '/api/v2/spot/trade/history-orders', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY, horizonDays: 90 * DAY },
  spotFills: { id: 'X2', method: 'GET', path: '/api/v2/spot/trade/fills', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY },
  withdrawals: { id: 'X3', method: 'GET', path: '/api/v2/spot/wallet/withdrawal-records', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 20, max: 100 } },
  spotBills: { id: 'X4', method: 'GET', path: '/api/v2/spot/account/bills', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 100, max: 500 }, maxSpanDays: 90 * DAY },
  futuresFills: { id: 'X5', method: 'GET', path: '/api/v2/mix/order/fills', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 90 * DAY, futures: true },
  futuresBills: { id: 'X6', method: 'GET', path: '/api/v2/mix/account/bill', ratePerSecond: 10, rateAssumed: true, signed: true, permission: 'read', limit: { default: 100, max: 100 }, maxSpanDays: 30 * DAY, futures: true },
  taxSpotRecords: { id: 'X7', method: 'GET', path: '/api/v2/tax/spot-record', ratePerSecond: 1, signed: true, permission: 'read', limit: { default: 500, max: 500 }, maxSpanDays: 30 * DAY },
  taxFutureRecords: { id: 'X8', method: 'GET', path: '/api/v2/tax/future-record', ratePerSecond: 1, signed: true, permission: 'read', limit: { default: 500, max: 500 }, maxSpanDays: 30 * DAY },
  publicCoins: { id: 'X9', method: 'GET', path: '/api/v2/spot/public/coins', ratePerSecond: 3, rateAssumed: true, signed: false, permission: null },
  publicSymbols: { id: 'X10', method: 'GET', path: '/api/v2/spot/public/symbols', ratePerSecond: 20, rateAssumed: true, signed: false, permission: null },
  // Market candles (api-notes.md "Market candles"): public, 20 requests/s per IP.
  marketCandles: { id: 'X11', method: 'GET', path: '/api/v2/spot/market/candles', ratePerSecond: 20, signed: false, permission: null, limit: { default: 100, max: 1000 } },
  marketHistoryCandles: { id: 'X12', method: 'GET', path: '/api/v2/spot/market/history-candles', ratePerSecond: 20, signed: false, permission: null, limit: { default: 100, max: 200 } },
} as const satisfies Record<string, EndpointDef>;

export type EndpointName = keyof typeof endpoints;

export const endpointList: readonly (EndpointDef & { name: EndpointName })[] = Object.entries(endpoints).map(
  ([name, def]) => ({ ...(def as EndpointDef), name: name as EndpointName }),
);

export const DAY_MS = 86_400_000;

export const productTypes = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export const demoProductTypes = ['SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES'] as const;
export type ProductType = (typeof productTypes)[number] | (typeof demoProductTypes)[number];
export const demoCoins = ['SUSDT', 'SBTC', 'SETH', 'SEOS', 'SUSDC'] as const;
