/**
 * Every raw spelling the exchange uses, per field, grouped under the one internal value we
 * store beside it. Lookup is case-insensitive (plan orders send `Buy`, transfers `Successful`).
 * The spec's odd spellings (api-notes.md "Quirks") are kept here on purpose, not fixed upstream.
 */
export const enumSpellings = {
  orderStatus: {
    live: ['live'],
    partially_filled: ['partially_filled', 'partially_fill'],
    filled: ['filled'],
    cancelled: ['cancelled', 'canceled'],
    rejected: ['reject'],
  },
  side: {
    buy: ['buy'],
    sell: ['sell'],
    'liquidation-buy': ['liquidation-buy'],
    'liquidation-sell': ['liquidation-sell'],
    'systemRepay-buy': ['systemRepay-buy'],
    'systemRepay-sell': ['systemRepay-selll', 'systemRepay-sell'],
  },
  orderType: { limit: ['limit'], market: ['market'] },
  force: { gtc: ['gtc'], post_only: ['post_only'], fok: ['fok'], ioc: ['ioc'] },
  enterPointSource: { WEB: ['WEB'], IOS: ['IOS'], ANDROID: ['ANDROID'], API: ['API'], SYS: ['SYS'] },
  orderSource: Object.fromEntries([
    'normal', 'market', 'spot_trader_buy', 'spot_follower_buy', 'spot_trader_sell', 'spot_follower_sell',
    'profit_market', 'loss_market', 'trader_delegate', 'trader_profit', 'trader_loss', 'reverse', 'trader_reverse',
    'profit_limit', 'loss_limit', 'liquidation', 'delivery_close_long', 'delivery_close_short',
    'pos_profit_limit', 'pos_profit_market', 'pos_loss_limit', 'pos_loss_market',
  ].map((value) => [value, value === 'trader_delegate' ? ['Trader_delegate'] : [value]])),
  cancelReason: { normal_cancel: ['normal_cancel'], stp_cancel: ['stp_cancel'] },
  loanType: { normal: ['normal'], autoLoan: ['autoLoan'], autoRepay: ['autoRepay'], autoLoanAndRepay: ['autoLoanAndRepay'] },
  marginTaxType: Object.fromEntries([
    'transfer_in', 'transfer_out', 'borrow', 'repay', 'liquidation_fee', 'compensate',
    'deal_in', 'deal_out', 'interest_repay', 'confiscated', 'exchange_in', 'exchange_out',
  ].map((value) => [value, [value]])),
  marginMode: { isolated: ['isolated'], crossed: ['crossed'] },
  posSide: { long: ['long'], short: ['short'], net: ['net'] },
  holdSide: { long: ['long'], short: ['short'] },
  tradeSide: Object.fromEntries([
    'open', 'close', 'reduce_close_long', 'reduce_close_short', 'offset_close_long', 'offset_close_short',
    'burst_close_long', 'burst_close_short', 'delivery_close_long', 'delivery_close_short',
  ].map((value) => [value, [value]])),
  posMode: { one_way_mode: ['one_way_mode'], hedge_mode: ['hedge_mode'] },
  reduceOnly: { yes: ['YES'], no: ['NO'] },
  planType: Object.fromEntries([
    'normal_plan', 'track_plan', 'profit_loss', 'profit_plan', 'loss_plan', 'moving_plan', 'pos_profit', 'pos_loss',
  ].map((value) => [value, [value]])),
  // A trigger order that has not triggered yet is live: the spec's table says `live`, a sample `not_trigger`.
  planStatus: { live: ['live', 'not_trigger'] },
  triggerType: { fill_price: ['fill_price'], mark_price: ['mark_price'], index_price: ['index_price'] },
  walletDest: { on_chain: ['on_chain'], internal: ['internal_transfer', 'internal'] },
  walletStatus: { pending: ['pending'], success: ['success'], failed: ['fail'] },
  transferStatus: { success: ['Successful'], failed: ['Failed'], pending: ['Processing'] },
  accountType: Object.fromEntries([
    'spot', 'p2p', 'coin_futures', 'usdt_futures', 'usdc_futures', 'crossed_margin', 'isolated_margin',
  ].map((value) => [value, [value]])),
  subAccountStatus: { normal: ['normal'], freeze: ['freeze'], del: ['del'] },
  productType: Object.fromEntries([
    'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES', 'SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES',
  ].map((value) => [value, [value]])),
  tradeScope: { taker: ['taker'], maker: ['maker'] },
  assetMode: { single: ['single'], union: ['union'] },
  feeDeduction: { yes: ['yes', 'true'], no: ['no', 'false'] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type EnumField = keyof typeof enumSpellings;
