import { sql, type Kysely } from 'kysely';
import { priceSources, type PriceSource } from './priceSources.js';

/** How a whole ledger was valued in one fiat: rows per rule, and per stablecoin basis. */
export interface ValuationSummary {
  readonly fiat: string;
  readonly rows: number;
  readonly bySource: Readonly<Record<PriceSource, number>>;
  /** Rows valued through a stablecoin, by basis: its own candle (market) or 1 USD (par). */
  readonly stablecoinBasis: { readonly market: number; readonly par: number };
}

/**
 * Values every ledger row in `fiat` and counts the rules used: the demo's closing line, and a
 * quick check that nothing is left unpriced. Demo-trading rows are counted too, under their own
 * rule `demo` (valued 0, sql/schema/functions/ledger_valued.sql), so the count is the whole ledger's.
 *
 * @example
 * const s = await valuationSummary(db, 'USD'); // s.bySource.unpriced === 0
 */
export async function valuationSummary(db: Kysely<any>, fiat: string): Promise<ValuationSummary> {
  const { rows } = await sql<{ price_source: PriceSource; basis: string | null; n: string }>`
    SELECT price_source, stablecoin_basis AS basis, count(*) AS n FROM ledger_valued(${fiat}, '-infinity', 'infinity', true) GROUP BY 1, 2`.execute(db);
  const bySource = Object.fromEntries(priceSources.map((s) => [s, 0])) as Record<PriceSource, number>;
  const stablecoinBasis = { market: 0, par: 0 };
  for (const r of rows) {
    bySource[r.price_source] += Number(r.n);
    if (r.basis === 'market' || r.basis === 'par') stablecoinBasis[r.basis] += Number(r.n);
  }
  return { fiat: fiat.toUpperCase(), rows: Object.values(bySource).reduce((a, b) => a + b, 0), bySource, stablecoinBasis };
}

/**
 * One line for people: rows, the rules used, what is unpriced.
 *
 * @example
 * summaryLine(s); // 'ledger valued in USD: 1488 rows (candle 364, stablecoin_quote 601, ...); 0 unpriced'
 */
export function summaryLine(s: ValuationSummary): string {
  const used = priceSources.filter((p) => p !== 'unpriced' && s.bySource[p] > 0).map((p) => `${p} ${s.bySource[p]}`);
  const basis = s.stablecoinBasis.market + s.stablecoinBasis.par > 0
    ? `; stablecoins at their own market price ${s.stablecoinBasis.market}, at 1 USD ${s.stablecoinBasis.par}` : '';
  return `ledger valued in ${s.fiat}: ${s.rows} rows (${used.join(', ')})${basis}; ${s.bySource.unpriced} unpriced${s.bySource.unpriced > 0 ? ' (listed in data-quality.csv)' : ''}`;
}
