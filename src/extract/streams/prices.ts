import pLimit from 'p-limit';
import { demoCoins } from '../../api/endpoints.js';
import { sql } from 'kysely';
import type { DerivedStream } from '../streamDef.js';
import type { AccountRun } from '../accountRun.js';
import { asList } from '../asList.js';
import { candleRequests, type CandleRequest } from '../candleRequests.js';
import { emptyCounts, type StreamCounts } from '../streamCounts.js';
import { withTransaction } from '../../db/withTransaction.js';

const LIMIT = 200;
const HOUR = 3_600_000;

/**
 * X12 history candles (1h) for every coin in the ledger, over the hours the ledger has rows in:
 * the price the valuation's candle rule reads (sql/0026, docs/valuation.md). Each coin is priced
 * through one pair, its USDT pair or else a stablecoin pair (price_symbols); a demo coin (SBTC)
 * through the pair of the coin it stands for. Every range asked is recorded in price_coverage
 * with its candles in one transaction, so a later run asks only for hours the ledger gained
 * since. The hour still running is the exception: its candle is stored as it stands (close =
 * the price now) but not marked covered, so the next run reads it again and updates it.
 */
export const prices: DerivedStream = {
  kind: 'derived',
  name: 'prices',
  endpoint: 'marketHistoryCandles',
  demo: false,
  sub: false,
  run: async (run) => {
    const counts = emptyCounts();
    await choosePairs(run);
    const needed = await sql<{ symbol: string; hour: Date }>`
      SELECT ps.symbol, n.hour
      FROM (SELECT DISTINCT coin, date_trunc('hour', ts) AS hour FROM ledger
            WHERE coin IS NOT NULL AND ts < to_timestamp(${run.now} / 1000.0)) n
      JOIN price_symbols ps ON ps.coin = n.coin
      WHERE NOT EXISTS (
        SELECT 1 FROM price_coverage c
        WHERE c.symbol = ps.symbol AND c.granularity = '1h' AND n.hour >= c.range_from AND n.hour < c.range_to)`.execute(run.db);
    const bySymbol = new Map<string, number[]>();
    for (const r of needed.rows) {
      // push, not a copy per row: copying made this quadratic (7.5 of 60 sync CPU-s at 1M records).
      const hours = bySymbol.get(r.symbol);
      if (hours === undefined) bySymbol.set(r.symbol, [r.hour.getTime()]);
      else hours.push(r.hour.getTime());
    }
    const requests = [...bySymbol].flatMap(([symbol, hours]) => candleRequests(symbol, hours, LIMIT));
    counts.windows = requests.length;
    // The client's rate budget paces these; a few in flight hide the round trip.
    const limit = pLimit(4);
    await Promise.all(requests.map((q) => limit(() => fetchRange(run, q, counts))));
    return counts;
  },
};

// The pair that prices each ledger coin: COINUSDT, else COIN + a stablecoin. Coins with none
// (USDT itself, fiat, delisted coins) stay without candles and fall to the later rules.
async function choosePairs(run: AccountRun): Promise<void> {
  const symbols = asList(await run.call('publicSymbols', {}));
  const stables = (await sql<{ coin: string }>`SELECT coin FROM stablecoins ORDER BY coin`.execute(run.db)).rows.map((r) => r.coin);
  const quotes = ['USDT', ...stables.filter((c) => c !== 'USDT')];
  const bySymbol = new Map(symbols.map((s) => [String(s.symbol), s]));
  const coins = (await sql<{ coin: string }>`SELECT DISTINCT coin FROM ledger WHERE coin IS NOT NULL`.execute(run.db)).rows.map((r) => r.coin);
  const chosen: { coin: string; symbol: string; quote: string }[] = [];
  for (const coin of coins) {
    const base = (demoCoins as readonly string[]).includes(coin) ? coin.slice(1) : coin;
    const quote = quotes.find((q) => q !== base && bySymbol.has(`${base}${q}`));
    if (quote !== undefined) chosen.push({ coin, symbol: `${base}${quote}`, quote });
  }
  if (chosen.length === 0) return;
  await sql`INSERT INTO price_symbols (coin, symbol, quote_coin)
    SELECT * FROM unnest(${chosen.map((c) => c.coin)}::text[], ${chosen.map((c) => c.symbol)}::text[], ${chosen.map((c) => c.quote)}::text[])
    ON CONFLICT (coin) DO UPDATE SET symbol = excluded.symbol, quote_coin = excluded.quote_coin, chosen_at = now()
    WHERE price_symbols.symbol <> excluded.symbol`.execute(run.db);
}

async function fetchRange(run: AccountRun, q: CandleRequest, counts: StreamCounts): Promise<void> {
  const data = await run.call('marketHistoryCandles', { symbol: q.symbol, granularity: '1h', endTime: String(q.endTime), limit: String(LIMIT) });
  counts.requests++;
  counts.pages++;
  const candles = (Array.isArray(data) ? data : []).filter((c): c is string[] =>
    Array.isArray(c) && c.length >= 5 && c.every((x) => typeof x === 'string') && Number(c[0]) >= q.from && Number(c[0]) < q.endTime);
  await withTransaction(run.db, async ({ client }) => {
    const r = await client.query(
      `INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, base_volume, quote_volume, usdt_volume, raw, run_id)
       SELECT $1, '1h', to_timestamp(u.ts::bigint / 1000.0), u.o::numeric, u.h::numeric, u.l::numeric, u.c::numeric,
              u.bv::numeric, u.qv::numeric, u.uv::numeric, u.raw::jsonb, $2
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS u(ts, o, h, l, c, bv, qv, uv, raw)
       ON CONFLICT (symbol, granularity, ts) DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low,
         close = excluded.close, base_volume = excluded.base_volume, quote_volume = excluded.quote_volume,
         usdt_volume = excluded.usdt_volume, raw = excluded.raw, run_id = excluded.run_id, fetched_at = now()
       WHERE price_candles.raw <> excluded.raw
       RETURNING (xmax = 0) AS inserted`,
      [q.symbol, run.runId, ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => candles.map((c) => c[i] ?? null)), candles.map((c) => JSON.stringify(c))]);
    // Only complete hours count as read; the running hour is asked again next run.
    const complete = Math.min(q.endTime, Math.floor(run.now / HOUR) * HOUR);
    if (complete > q.from) {
      await client.query(
        `INSERT INTO price_coverage (symbol, granularity, range_from, range_to, run_id)
         VALUES ($1, '1h', to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0), $4) ON CONFLICT DO NOTHING`,
        [q.symbol, q.from, complete, run.runId]);
    }
    const inserted = r.rows.filter((x: { inserted: boolean }) => x.inserted).length;
    counts.inserted += inserted;
    counts.updated += r.rows.length - inserted;
    counts.unchanged += candles.length - r.rows.length;
  });
}
