/**
 * The valuation rules in the order ledger_valued (sql/schema/functions/ledger_valued.sql) tries them: the first that applies
 * gives the row's value, and its name is the row's price_source. docs/valuation.md explains each.
 * `demo` (sql/schema/views/ledger.sql) comes first: a demo-trading row, included only on request, is valued 0.
 * `corrected` (sql/migrations/0067_ledger_corrections.sql) is an accountant's price (`tradeledger classify set --price`), which
 * replaces whichever rule would have applied.
 *
 * @example
 * priceSources.indexOf('candle'); // 7: tried after the fill's own prices
 */
export const priceSources = [
  'demo', 'corrected', 'imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced',
] as const;

export type PriceSource = (typeof priceSources)[number];
