/**
 * The valuation rules in the order ledger_valued (sql/schema/functions/ledger_valued.sql) tries them: the first that applies
 * gives the row's value, and its name is the row's price_source. docs/valuation.md explains each.
 * `demo` (sql/schema/functions/ledger_valued.sql) comes first: a demo-trading row, included only on request, is valued 0.
 *
 * @example
 * priceSources.indexOf('candle'); // 7: tried after the fill's own prices
 */
export const priceSources = [
  'demo', 'imported', 'fiat', 'fiat_quote', 'stablecoin_quote', 'fill_price', 'stablecoin', 'candle', 'unpriced',
] as const;

export type PriceSource = (typeof priceSources)[number];
