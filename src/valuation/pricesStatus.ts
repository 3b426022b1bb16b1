import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/** What `tradeledger status` shows of the data valuation rests on (docs/valuation.md). */
export interface PricesStatus {
  /** The prices stream: coins with a chosen candle symbol, candles held, the newest candle. */
  candles: { coins: number; candles: number; latest: string | null };
  /** ECB rates (tradeledger import fx): currencies and the last day with a published rate. */
  fx: { currencies: number; lastRateDay: string | null };
  /** tradeledger import transactions: rows and files per wallet. */
  wallets: { wallet: string; transactions: number; files: number; lastImportAt: string }[];
}

/**
 * Reads the state of candles, FX rates and imported transactions, for `tradeledger status`.
 *
 * @example
 * const p = await pricesStatus(db); if (p.fx.currencies === 0) console.log('no FX rates: tradeledger import fx');
 */
export async function pricesStatus(db: Kysely<any>): Promise<PricesStatus> {
  const c = (await sql<{ coins: string; candles: string; latest: Date | null }>`
    SELECT (SELECT count(*) FROM price_symbols)::text AS coins, count(*)::text AS candles, max(ts) AS latest FROM price_candles`.execute(db)).rows[0]!;
  const fx = (await sql<{ currencies: string; last_day: string | null }>`
    SELECT count(DISTINCT currency)::text AS currencies, max(day)::text AS last_day FROM fx_rates`.execute(db)).rows[0]!;
  const wallets = (await sql<{ wallet: string; transactions: string; files: string; last_at: Date }>`
    SELECT t.wallet, count(*)::text AS transactions, count(DISTINCT t.file_sha256)::text AS files, max(f.imported_at) AS last_at
    FROM imported_transactions t JOIN imported_files f ON f.sha256 = t.file_sha256
    GROUP BY t.wallet ORDER BY t.wallet`.execute(db)).rows;
  return {
    candles: { coins: Number(c.coins), candles: Number(c.candles), latest: c.latest?.toISOString() ?? null },
    fx: { currencies: Number(fx.currencies), lastRateDay: fx.last_day },
    wallets: wallets.map((w) => ({ wallet: w.wallet, transactions: Number(w.transactions), files: Number(w.files), lastImportAt: w.last_at.toISOString() })),
  };
}
