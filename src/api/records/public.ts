import type { Str } from './envelope.js';

export interface CoinInfo {
  coinId: Str; coin: Str; transfer: 'true' | 'false';
  chains: { chain: Str; needTag: 'true' | 'false'; withdrawable: 'true' | 'false'; rechargeable: 'true' | 'false'; withdrawFee: Str; minWithdrawAmount: Str }[];
}

export interface SymbolInfo {
  symbol: Str; baseCoin: Str; quoteCoin: Str; minTradeAmount: Str; maxTradeAmount: Str;
  takerFeeRate: Str; makerFeeRate: Str; pricePrecision: Str; quantityPrecision: Str; quotePrecision: Str;
  status: 'online' | 'offline' | 'halt' | 'gray';
}
