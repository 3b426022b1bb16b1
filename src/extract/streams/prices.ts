import pLimit from 'p-limit';
import { demoCoins } from '../../api/endpoints.js';
import { sql } from 'kysely';
import type { DerivedStream } from '../streamDef.js';
import type { AccountRun } from '../accountRun.js';
import { asList } from '../asList.js';
import { candleCells, type CandleRequest } from '../candleRequests.js';
import { emptyCounts, type StreamCounts } from '../streamCounts.js';
import { poolOf } from '../../db/createDb.js';
import { textArrayLiteral } from '../../db/sqlText.js';
import type { Arrival } from '../ledgerArrivals.js';

const LIMIT = 200;
const HOUR = 3_600_000;

/**
 * X12 history candles (1h) for every coin in the ledger, over the hours the ledger has rows in:
 * the price the valuation's candle rule reads (sql/schema/functions/ledger_valued.sql, docs/valuation.md). Each coin is priced
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
  run: async (run, timing) => {
    const counts = emptyCounts();
    // The pairs are chosen once per run (one symbol-list request), for every pass.
    const pairs = await pairsOffered(run);
    const read = new Set<string>();
    const pass = async (only?: readonly Arrival[]) => { for (const s of await readCandles(run, counts, pairs, read, only)) read.add(s); };
    // Early passes, while the history still arrives: the hours of each account's table whose job
    // has ended, so the candle budget (20 requests/s per address) works beside the per-UID ones
    // instead of after them. Only the tables the ledger reads; each pass takes every table that
    // ended while the one before was asking.
    if (timing?.arrivals !== undefined) {
      for (let batch; (batch = await timing.arrivals.take()) !== undefined;) {
        const only = batch.filter((a) => ledgerTables.has(a.table));
        if (only.length > 0) {
          run.assertHeld();
          await pass(only);
        }
      }
    }
    // The endpoints faster than 1 request/s are done: the whole ledger, for what the early
    // passes did not see (fees in another coin, imports, earlier runs' rows).
    const rest = timing === undefined ? undefined : (await timing.ready).rest;
    run.assertHeld();
    await pass();
    // The slow streams (E5 at 1 request/s) were still walking: the hours their records need that
    // the pass before did not cover (price_coverage) are read now, usually few or none. The hour
    // still running is never covered; a pair whose running hour a pass read (`read`) is not asked
    // for it again.
    if (rest !== undefined) {
      // Meanwhile, the hours of what their pages store, a few seconds' worth at a time.
      if (timing?.slowArrivals !== undefined) {
        for (let batch; (batch = await timing.slowArrivals.take()) !== undefined;) {
          run.assertHeld();
          await pass(batch);
        }
      }
      await rest;
      run.assertHeld();
      await pass();
    }
    return counts;
  },
};

/**
 * The tables whose rows the ledger view reads (its `source` column; sql/schema/views/ledger.sql).
 * An early pass reads only these; a table missing here is still priced by the full pass.
 */
export const ledgerTables: ReadonlySet<string> = new Set(['spot_fills', 'deposits', 'withdrawals', 'transfers', 'margin_records', 'futures_bills', 'imported_transactions']);

/**
 * One pass: the hours the ledger needs now and has no candle for (only the rows of the given
 * accounts' tables, when given), read as candle requests, less the running hour of the pairs in
 * `runningHourRead`. Returns the pairs whose running hour this pass read.
 */
async function readCandles(run: AccountRun, counts: StreamCounts, pairs: PairOffered[], runningHourRead: ReadonlySet<string>, only?: readonly Arrival[]): Promise<Set<string>> {
  const needed = await neededHours(run, pairs, only);
  const runningHour = Math.floor(run.now / HOUR) * HOUR;
  const bySymbol = new Map<string, number[]>();
  const readRunningHour = new Set<string>();
  for (const r of needed) {
    if (r.hour.getTime() >= runningHour) {
      if (runningHourRead.has(r.symbol)) continue;
      readRunningHour.add(r.symbol);
    }
    // push, not a copy per row: copying made this quadratic (7.5 of 60 sync CPU-s at 1M records).
    const hours = bySymbol.get(r.symbol);
    if (hours === undefined) bySymbol.set(r.symbol, [r.hour.getTime()]);
    else hours.push(r.hour.getTime());
  }
  // Cells of a fixed grid: each asked once however the passes split the ledger; the newest ends
  // with the hour still running.
  const requests = [...bySymbol].flatMap(([symbol, hours]) => candleCells(symbol, hours, LIMIT, runningHour + HOUR));
  counts.windows += requests.length;
  // Each candle request is a window of the live display (ttyProgress, JSON log lines): without
  // them a run of hundreds of requests showed "0 records, windows 0/0" until it ended.
  const where = { account: run.account.name, stream: 'prices', partition: 'all' };
  run.emit({ type: 'windows-added', ...where, windows: requests.length });
  let done = 0;
  // The client's rate budget paces these; a few in flight hide the round trip. 8: a candle
  // answer can take ~250 ms (the sandbox's, generating the fills behind it), and 4 in flight then
  // held the stream to 15 requests/s of its 19 (issue 24 item 1, BENCHMARKS.md session 10).
  const limit = pLimit(8);
  await Promise.all(requests.map((q) => limit(async () => {
    const got = await fetchRange(run, q, counts);
    done++;
    run.emit({ type: 'page', ...where, records: got.records, inserted: got.inserted, updated: got.updated, window: done, windows: requests.length });
    run.emit({ type: 'window-done', ...where, window: done, windows: requests.length });
  })));
  return readRunningHour;
}

/**
 * The pair that prices each coin the exchange lists: COINUSDT, else COIN + a stablecoin (a demo
 * coin such as SBTC: the pair of the coin it stands for). Coins with none (USDT itself, fiat,
 * delisted coins) stay without candles and fall to the later rules.
 */
interface PairOffered { coin: string; symbol: string; quote: string }

async function pairsOffered(run: AccountRun): Promise<PairOffered[]> {
  const symbols = new Set(asList(await run.call('publicSymbols', {})).map((s) => String(s.symbol)));
  const stables = (await sql<{ coin: string }>`SELECT coin FROM stablecoins ORDER BY coin`.execute(run.db)).rows.map((r) => r.coin);
  const quotes = ['USDT', ...stables.filter((c) => c !== 'USDT')];
  const demo = demoCoins as readonly string[];
  const pairOf = (base: string) => {
    const quote = quotes.find((q) => q !== base && symbols.has(`${base}${q}`));
    return quote === undefined ? undefined : { symbol: `${base}${quote}`, quote };
  };
  // Every base a listed symbol can have: a coin outside this set has no pair under any quote.
  const bases = new Set<string>();
  for (const s of symbols) for (const q of quotes) if (s.length > q.length && s.endsWith(q)) bases.add(s.slice(0, -q.length));
  const out: PairOffered[] = [];
  for (const coin of [...[...bases].filter((b) => !demo.includes(b)), ...demo]) {
    const pair = pairOf(demo.includes(coin) ? coin.slice(1) : coin);
    if (pair !== undefined) out.push({ coin, ...pair });
  }
  return out;
}

/**
 * The hours each pair still needs: every hour the ledger has a row of the pair's coin in, less
 * the hours price_coverage says were read. One pass over the ledger (the costly part: ~3 s at a
 * million records): its coins choose the pairs, stored in price_symbols by the same statement,
 * and its hours are the ones asked. A coin no listed pair prices now keeps the pair chosen for it
 * before. Hours are the candles' UTC hours (`date_bin` from a UTC origin, as ledger_valued joins
 * them): `date_trunc` follows the session's zone, on the half hour at +05:30.
 */
async function neededHours(run: AccountRun, pairs: readonly PairOffered[], only?: readonly Arrival[]): Promise<{ symbol: string; hour: Date }[]> {
  const result = await sql<{ symbol: string; hour: Date }>`
    WITH n AS MATERIALIZED (
      SELECT DISTINCT coin, date_bin('1 hour', ts, '2000-01-01Z') AS hour FROM ledger
      WHERE coin IS NOT NULL AND ts < to_timestamp(${run.now} / 1000.0)${only === undefined ? sql`` : sql` AND (${ofTables(only)})`}),
    chosen AS MATERIALIZED (
      SELECT c.coin, c.symbol, c.quote_coin
      FROM unnest(${pairs.map((c) => c.coin)}::text[], ${pairs.map((c) => c.symbol)}::text[], ${pairs.map((c) => c.quote)}::text[]) AS c(coin, symbol, quote_coin)
      WHERE c.coin IN (SELECT coin FROM n)),
    saved AS (
      INSERT INTO price_symbols (coin, symbol, quote_coin) SELECT coin, symbol, quote_coin FROM chosen
      ON CONFLICT (coin) DO UPDATE SET symbol = excluded.symbol, quote_coin = excluded.quote_coin, chosen_at = now()
      WHERE price_symbols.symbol <> excluded.symbol),
    pairs AS (
      SELECT coin, symbol FROM chosen
      UNION ALL
      SELECT ps.coin, ps.symbol FROM price_symbols ps WHERE NOT EXISTS (SELECT 1 FROM chosen c WHERE c.coin = ps.coin))
    SELECT p.symbol, n.hour
    FROM n JOIN pairs p ON p.coin = n.coin
    WHERE NOT EXISTS (
      SELECT 1 FROM price_coverage c
      WHERE c.symbol = p.symbol AND c.granularity = '1h' AND n.hour >= c.range_from AND n.hour < c.range_to)`.execute(run.db);
  return result.rows;
}

/**
 * The condition that keeps the given accounts' tables: `source` as a literal, so PostgreSQL
 * plans only those branches of the ledger view (the names come from ledgerTables, never input).
 */
function ofTables(only: readonly Arrival[]) {
  const byTable = new Map<string, string[]>();
  for (const a of only) byTable.set(a.table, [...(byTable.get(a.table) ?? []), a.uid]);
  return sql.join([...byTable].map(([table, uids]) => sql`(source = ${sql.lit(table)} AND account_uid = ANY(${uids}::text[]))`), sql` OR `);
}

// One statement per answer (atomic without BEGIN/COMMIT, one round trip): the candles and, for
// the complete hours, the coverage that says they were read. Prepared once per connection.
const candleStatement = {
  name: 'tradeledger-price-candles-1h',
  text: `WITH up AS (
      INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, base_volume, quote_volume, usdt_volume, raw, run_id)
      SELECT $1, '1h', to_timestamp(u.ts::bigint / 1000.0), u.o::numeric, u.h::numeric, u.l::numeric, u.c::numeric,
             u.bv::numeric, u.qv::numeric, u.uv::numeric, u.raw::jsonb, $2
      FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
        AS u(ts, o, h, l, c, bv, qv, uv, raw)
      ON CONFLICT (symbol, granularity, ts) DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low,
        close = excluded.close, base_volume = excluded.base_volume, quote_volume = excluded.quote_volume,
        usdt_volume = excluded.usdt_volume, raw = excluded.raw, run_id = excluded.run_id, fetched_at = now()
      WHERE price_candles.raw <> excluded.raw
      RETURNING (xmax = 0) AS inserted),
    covered AS (
      INSERT INTO price_coverage (symbol, granularity, range_from, range_to, run_id)
      SELECT $1, '1h', to_timestamp($12::bigint / 1000.0), to_timestamp($13::bigint / 1000.0), $2
      WHERE $13::bigint > $12::bigint
      ON CONFLICT DO NOTHING)
    SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*)::int AS written FROM up`,
};

async function fetchRange(run: AccountRun, q: CandleRequest, counts: StreamCounts): Promise<{ records: number; inserted: number; updated: number }> {
  const data = await run.call('marketHistoryCandles', { symbol: q.symbol, granularity: '1h', endTime: String(q.endTime), limit: String(LIMIT) });
  counts.requests++;
  counts.pages++;
  const candles = (Array.isArray(data) ? data : []).filter((c): c is string[] =>
    Array.isArray(c) && c.length >= 5 && c.every((x) => typeof x === 'string') && Number(c[0]) >= q.from && Number(c[0]) < q.endTime);
  // Only complete hours count as read; the running hour is asked again next run.
  const complete = Math.min(q.endTime, Math.floor(run.now / HOUR) * HOUR);
  const r = await poolOf(run.db).query<{ inserted: number; written: number }>({
    ...candleStatement,
    // The arrays as the literal pg would write for them (textArrayLiteral: same bytes, less CPU).
    values: [q.symbol, run.runId, ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => textArrayLiteral(candles.map((c) => c[i] ?? null))),
      textArrayLiteral(candles.map((c) => JSON.stringify(c))), String(q.from), String(complete)],
  });
  const { inserted, written } = r.rows[0]!;
  counts.inserted += inserted;
  counts.updated += written - inserted;
  counts.unchanged += candles.length - written;
  return { records: candles.length, inserted, updated: written - inserted };
}
