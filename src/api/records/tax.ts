import type { Str } from './envelope.js';

/** X7 tax spot-record element. */
export interface TaxSpotRecord {
  id: Str; coin: Str; spotTaxType: Str; amount: Str; fee: Str; total: Str; ts: Str;
}

/** X8 tax future-record element. */
export interface TaxFutureRecord {
  id: Str; symbol: Str; marginCoin: Str; futureTaxType: Str; amount: Str; fee: Str; ts: Str;
}
